/// The median of values already sorted ascending: the middle value, or the mean of the two
/// middle values when the count is even; nil when there are none.
/// - Parameter sorted: values sorted ascending.
/// - Returns: the median, or nil.
@inlinable
public func median<C: RandomAccessCollection>(ofSorted sorted: C) -> C.Element?
where C.Element: FloatingPoint, C.Index == Int {
    guard !sorted.isEmpty else { return nil }
    let middle = sorted.startIndex + sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
