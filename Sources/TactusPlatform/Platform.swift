// The platform layer every Tactus module builds on, in one place. On Linux the modules use
// FoundationEssentials, not Foundation: the shipped binary then carries neither Foundation's
// internationalization nor ICU's data (31.9 MB static instead of 81 MB, and its pages are most
// of a conversion's memory). Apple platforms, where FoundationEssentials is not a module of its
// own, use Foundation. The C library comes with it, as Foundation used to re-export it.
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif
@_exported import Dispatch
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif
