import Dispatch

/// Waits for `duration`, ignoring cancellation: a hook that is truly stuck. It does not
/// block its thread, which the other tests running at the same time need.
public func waitIgnoringCancellation(for duration: Duration) async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + duration.seconds) { continuation.resume() }
    }
}
