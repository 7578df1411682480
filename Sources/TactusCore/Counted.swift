/// `count` and a noun in the number it takes in English: "1 transient", "0 transients",
/// "2 continuous regions"; `plural` for nouns not made plural by an "s".
/// - Parameters:
///   - count: how many.
///   - singular: the noun for one.
///   - plural: the noun for any other count; nil for `singular` + "s".
/// - Returns: the count, a space and the noun.
public func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}
