/// Every module that imports TactusCore sees the platform layer (`TactusPlatform`: the
/// Foundation module of the platform, Dispatch and the C library) through it.
@_exported import TactusPlatform
