extension Int {
    /// The number with a comma between groups of three digits, as hived writes counts in
    /// its messages: `20,429`.
    var grouped: String {
        let digits = String(magnitude)
        var text = self < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
