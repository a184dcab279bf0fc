import CMalloc

/// Bytes handed out by glibc's malloc and not yet freed, in every arena: `uordblks` plus
/// `hblkhd` (chunks mapped on their own). Wraps `mallinfo2`.
func heapInUse() -> Int {
    let info = mallinfo2()
    return Int(info.uordblks) + Int(info.hblkhd)
}
