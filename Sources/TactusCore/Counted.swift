/// `count` and a noun in the number it takes in English: "1 transient", "0 transients",
/// "2 continuous regions"; `plural` for nouns not made plural by an "s".
public func counted(_ count: Int, _ singular: String, plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}
