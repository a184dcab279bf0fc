extension String {
    /// The string between double quotes, as a log line's value and a JSON string both
    /// write it: `"` and `\` escaped with a backslash, newline, return and tab as `\n`,
    /// `\r` and `\t`; every other scalar `appendOther` appends as it should read (control
    /// characters are where the two differ).
    package func quoted(appendingOther appendOther: (Unicode.Scalar, inout String) -> Void) -> String {
        var result = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: appendOther(scalar, &result)
            }
        }
        return result + "\""
    }
}
