import Foundation
import Testing

/// A systemd release the suite boots, with the Debian release that ships it: the oldest and
/// the newest the package supports. Every check takes the release as its argument, so each
/// runs against both.
enum SystemdRelease: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// systemd 252, Debian 12 ("bookworm"): this machine's own, booted over an overlay of `/`
    /// with the machine's cgroup layout (cgroup v1 controllers, systemd on the unified
    /// hierarchy).
    case v252 = "252"
    /// systemd 257, Debian 13 ("trixie"): a `debootstrap` of trixie cached outside the clone
    /// (`scripts/lib/debian-root`), booted over an overlay of it with cgroup v2, as a real
    /// Debian 13 machine runs.
    case v257 = "257"

    /// The Debian release that ships it.
    var debian: String {
        switch self {
        case .v252: "Debian 12"
        case .v257: "Debian 13"
        }
    }

    /// The Debian suite `debootstrap` makes its root from, or `nil` for this machine's `/`.
    var debootstrapSuite: String? {
        switch self {
        case .v252: nil
        case .v257: "trixie"
        }
    }

    /// Whether the container gets cgroup v2 alone (`SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1`):
    /// systemd 257 no longer supports the legacy hierarchies, and only on v2 does it hand
    /// out `MEMORY_PRESSURE_WATCH`.
    var unifiedCgroups: Bool { self == .v257 }

    /// Whether this systemd knows `Type=notify-reload`, `MemoryPressureWatch=` (sets
    /// `MEMORY_PRESSURE_WATCH`), `FileDescriptorStorePreserve=` and `varlinkctl` (253–255).
    var isModern: Bool { self == .v257 }

    var testDescription: String { "systemd \(rawValue) (\(debian))" }

    /// The releases this run boots: every release but those ``SuiteRequirements`` skips.
    static let selected: [SystemdRelease] = allCases.filter { SuiteRequirements.shouldRun(for: $0) }

    /// The selected releases that know `Type=notify-reload` and the rest of ``isModern``.
    static var modern: [SystemdRelease] { selected.filter(\.isModern) }

    /// The selected releases that do not.
    static var legacy: [SystemdRelease] { selected.filter { !$0.isModern } }
}
