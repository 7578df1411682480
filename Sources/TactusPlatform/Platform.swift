// The Foundation of the platform, under one name for every Tactus module. On Linux the modules
// use FoundationEssentials, not Foundation: the shipped binary then carries neither Foundation's
// internationalization nor ICU's data (31.9 MB static instead of 81 MB, and its pages are most
// of a conversion's memory). Apple platforms, where FoundationEssentials is not a module of its
// own, use Foundation. Only Foundation is re-exported: a module that calls the C library or
// Dispatch imports them itself.
#if canImport(FoundationEssentials)
@_exported import FoundationEssentials
#else
@_exported import Foundation
#endif
