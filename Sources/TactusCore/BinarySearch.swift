extension RandomAccessCollection {
    /// The index of the first element for which `belongsInSecondPartition` is true, or
    /// `endIndex` if there is none; O(log n). The collection must already be partitioned by
    /// the predicate (every false before every true), as a sorted collection is by
    /// `{ $0 > x }` or `{ $0 >= x }`.
    /// - Parameter belongsInSecondPartition: the predicate the collection is partitioned by.
    /// - Returns: the first index of the second partition.
    @inlinable
    public func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try belongsInSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
