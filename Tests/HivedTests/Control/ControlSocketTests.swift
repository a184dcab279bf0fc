import Testing

/// The control socket's process tests, one at a time: each starts hived and clients
/// (Python, ctl, stress loops), and run side by side they would take the CPU that other
/// suites' timed hooks need on a 2-core machine.
@Suite(.serialized) enum ControlSocketTests {}
