/// The signature libFuzzer calls with each input.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>, Int) -> CInt

/// Hands the process to libFuzzer's driver with `target` as the function under test.
///
/// SwiftPM links an executable's entry point from a symbol named `<module>_main` (so that
/// tests can import executables), which keeps libFuzzer's own `main` out of the link; each
/// fuzz target therefore exports that symbol and calls this.
public func runFuzzer(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                      _ target: FuzzTarget) -> Int32 {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, target)
}

/// libFuzzer's documented entry for programs with their own `main` (LLVM ≥ 11).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ target: FuzzTarget) -> Int32
