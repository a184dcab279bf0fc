extension String {
    /// The longest prefix of at most `limit` UTF-8 bytes that ends on a scalar boundary.
    func prefix(utf8Bytes limit: Int) -> Substring {
        guard utf8.count > limit else { return self[...] }
        var end = utf8.index(utf8.startIndex, offsetBy: max(limit, 0))
        while end > startIndex && end.samePosition(in: unicodeScalars) == nil { end = utf8.index(before: end) }
        return self[..<end]
    }

}
