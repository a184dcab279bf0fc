import Testing

/// Whether the real-systemd suite runs, skips or fails is decided in code, the same for
/// `swift test` as for `scripts/test`, for each systemd release: required on CI, skipped
/// elsewhere when it cannot run.
@Suite struct SuiteRequirementsTests {
    static let lacking = "the real-systemd suite needs root"

    @Test func aMachineThatCanRunItRunsIt() {
        #expect(SuiteRequirements.decision(environment: [:], unmet: nil) == .run)
        #expect(SuiteRequirements.decision(environment: ["CI": "true"], unmet: nil) == .run)
        #expect(SuiteRequirements.decision(environment: ["HIVED_SYSTEMD_SUITE": "require"], unmet: nil) == .run)
    }

    @Test func onCIAMissingCapabilityFailsTheSuite() {
        for ci in ["true", "1", "yes"] {
            #expect(SuiteRequirements.decision(environment: ["CI": ci], unmet: Self.lacking)
                == .fail("\(Self.lacking) (required: CI is set)"))
        }
        #expect(SuiteRequirements.decision(environment: ["HIVED_SYSTEMD_SUITE": "require"], unmet: Self.lacking)
            == .fail("\(Self.lacking) (required: HIVED_SYSTEMD_SUITE=require)"))
    }

    @Test func elsewhereItSkipsSayingWhy() {
        #expect(SuiteRequirements.decision(environment: [:], unmet: Self.lacking) == .skip(Self.lacking))
        #expect(SuiteRequirements.decision(environment: ["CI": ""], unmet: Self.lacking) == .skip(Self.lacking))
    }

    @Test func skipOnPurposeSkipsEvenOnCI() {
        let skip = SuiteRequirements.Decision.skip("HIVED_SYSTEMD_SUITE=skip")
        #expect(SuiteRequirements.decision(environment: ["HIVED_SYSTEMD_SUITE": "skip"], unmet: nil) == skip)
        #expect(SuiteRequirements.decision(environment: ["HIVED_SYSTEMD_SUITE": "skip", "CI": "true"], unmet: Self.lacking) == skip)
    }

    @Test func hivedSystemdReleasesBootsOnlyTheReleasesItNames() {
        for chosen in ["252", "252,999", "252 999"] {
            let environment = ["HIVED_SYSTEMD_RELEASES": chosen, "CI": "true"]
            #expect(SuiteRequirements.decision(for: .v252, environment: environment, unmet: nil) == .run)
            #expect(SuiteRequirements.decision(for: .v257, environment: environment, unmet: Self.lacking)
                == .skip("HIVED_SYSTEMD_RELEASES=\(chosen)"))
        }
        for environment in [["CI": "true"], ["CI": "true", "HIVED_SYSTEMD_RELEASES": ""]] {
            #expect(SuiteRequirements.decision(for: .v257, environment: environment, unmet: Self.lacking)
                == .fail("\(Self.lacking) (required: CI is set)"))
        }
    }

    @Test(arguments: SystemdRelease.allCases)
    func theDecisionForThisProcessIsWhatTheSuiteFollows(release: SystemdRelease) {
        switch SuiteRequirements.current(for: release) {
        case .run:
            #expect(SuiteRequirements.shouldRun(for: release) && SuiteRequirements.unmet(for: release) == nil)
            #expect(SystemdRelease.selected.contains(release))
        case .fail(let reason):
            #expect(SuiteRequirements.shouldRun(for: release) && SuiteRequirements.unmet(for: release) == reason)
            #expect(SystemdRelease.selected.contains(release))
        case .skip(let reason):
            #expect(!SuiteRequirements.shouldRun(for: release) && SuiteRequirements.unmet(for: release) == reason)
            #expect(!SystemdRelease.selected.contains(release))
        }
    }
}
