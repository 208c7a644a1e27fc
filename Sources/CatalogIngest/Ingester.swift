import CatalogCore
import CatalogStore
import Foundation

/// Walks the roots, decodes what changed since the last run and writes it through one connection,
/// all inside one transaction: a run that dies leaves the catalogue as it was. A thread walks and
/// stats (``WalkThread``), batches are decoded one after the other by a thread per core at a lower
/// priority (``DecodeWorkers``), and this thread writes the earlier ones meanwhile: it is
/// the only one that touches SQLite.
package final class Ingester {
    /// Live progress, reported a few times a second while a run goes on.
    package struct Progress: Sendable {
        package var scanned: Int
        package var decoded: Int
        package var elapsed: Double
    }

    private let catalogue: Catalogue
    private let writer: CatalogWriter
    private let options: IngestOptions
    private var report = IngestReport()
    private var now = Date()
    private var runID: Int64 = 0
    /// Every path the walk saw this run: candidates, so what lies under them counts as present.
    private var seen = Set<String>()
    /// Contents a profile file of this run has been counted as decoded for. A profile file counts
    /// once per content, in walk order, whichever thread decoded that content: a build's worker may
    /// have claimed it first, and the run's counts must not depend on which did.
    private var countedProfileContents = Set<String>()
    /// Content hashes whose profile this run has stored, and the UUID they hold.
    private var profileBySHA: [String: String] = [:]
    /// The profiles decoded in the batch being written, by content hash.
    private var batchProfiles: [String: ProvisioningProfile] = [:]
    /// Profiles builds embed that another file of the run decoded, by content hash: what their
    /// signatures are checked against (a few distinct ones however many builds share them).
    private var signingProfiles: [String: ProvisioningProfile] = [:]
    /// Build ids of containers written or looked up this run, for nested bundles' parent.
    private var buildIDs: [String: Int64] = [:]
    /// Profiles that lost a location this run (gone, or no longer decoding): those left with none are
    /// counted removed once the run is over, whatever order the roots came in.
    private var lostProfiles = Set<String>()
    /// The stored form of the raw plist of each profile decoded in the batch being written.
    private var compactBySHA: [String: StoredPlist.Encoded] = [:]
    /// Whether the catalogue held nothing when the run began: then every row it holds at the end
    /// was written this run, at `now`, for a path the walk saw, and nothing can be marked removed
    /// or seen again.
    private var startedEmpty = false
    /// Writes so far this run, counted for the test hooks (debug builds only).
    private var writes = 0
    private let claims = ContentClaims()
    private var onWarning: (String, String) -> Void = { _, _ in }
    private var onProgress: (Progress) -> Void = { _ in }
    private var lastProgress = Date.distantPast
    private let started = Date()

    package init(catalogue: Catalogue, options: IngestOptions) {
        self.catalogue = catalogue
        self.writer = catalogue.writer
        self.options = options
    }

    package convenience init(db: Connection, options: IngestOptions) {
        self.init(catalogue: Catalogue(db), options: options)
    }

    /// Runs the ingest. `warning` receives each bad file (path, reason); `progress` live counts.
    package func run(warning: @escaping (String, String) -> Void = { _, _ in },
                     progress: @escaping (Progress) -> Void = { _ in }) throws -> IngestReport {
        onWarning = warning
        onProgress = progress
        now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        // A run is one large transaction. A power cut may lose the last run; whether the file stays
        // consistent depends on the drive writing in order, and whether the run survives on its
        // cache reaching the medium: the store's settings say how each platform gets there.
        // Each root under its on-disk spelling and once per folder: a second spelling
        // would key the same files twice and never see the other's rows as removed.
        let roots = RootResolver.resolve(options.roots, using: options.pathResolver)
        do {
            try write(roots)
        } catch {
            // The run's own transaction is gone: a run of its own says it failed, so that `runs`
            // and the staleness alarm see it (when even that cannot be written, nothing can).
            try? catalogue.writeRun {
                let failed = try writer.beginRun(roots: roots.map(\.path), at: now)
                try writer.finishRun(failed, counts: RunCounts(), status: .failed,
                                     reason: "the catalogue could not be written: \(error)", at: Date())
            }
            throw error
        }
        return report
    }

    private func write(_ roots: [ResolvedRoot]) throws {
        try catalogue.writeRun {
            startedEmpty = try writer.holdsNothing()
            runID = try writer.beginRun(roots: roots.map(\.path), at: now)
            report.runID = runID
            var walked: [ResolvedRoot] = []
            for root in roots where try ingest(root: root.path) { walked.append(root) }
            // After every root, so nothing another root holds can look gone.
            for root in walked { for alias in root.aliases { try retire(alias: alias) } }
            try writer.noteRefusedRenewalsOfFirstRun()
            warnRefusedRenewals(at: roots.first?.path ?? "")
            report.profilesRemoved = try writer.profilesWithoutLiveLocation(lostProfiles)
            (report.profilesTotal, report.buildsTotal) = try writer.presentCounts()
            report.seconds = Date().timeIntervalSince(started)
            // A root that could not be read, or was refused as emptied, fails the run (partly when
            // other roots were read): the staleness alarm counts from the last run that read them all.
            let failed = report.failedRoots
            let status: RunStatus = failed.isEmpty ? .ok : failed.count < roots.count ? .partial : .failed
            let reason = failed.isEmpty ? nil : failed.map { "\($0.0): \($0.1)" }.joined(separator: "\n")
            try writer.finishRun(runID, counts: report.counts, status: status, reason: reason, at: Date())
        }
    }

    // MARK: One root

    /// Walks one root; false when the root itself could not be read.
    private func ingest(root: String) throws -> Bool {
        var pending: [(Candidate, CatalogWriter.FileStamp)] = []
        var rootReadable = true
        let size = max(options.batchSize, 1)
        let decoders = DecodeWorkers(count: DecodeQueue.workers)
        defer { decoders.stop() }
        // However the walk ends, nothing is left decoding in the background (the last batch is
        // decoded after all the others), before the threads are let go.
        defer { inFlight.last?.group.wait(); inFlight.removeAll() }
        // The walk starts at once; this thread reads the index and what is present meanwhile.
        let walk = WalkThread(root: root, excludes: options.excludes)
        // However this thread stops, the walking thread stops too and is waited for.
        defer { walk.stop() }
        let stamps = options.full ? [:] : try writer.fileStamps(under: root)
        // Most runs meet the files they knew: room for them all, not a rehash at every doubling.
        seen.reserveCapacity(seen.count + stamps.count)
        // What the catalogue holds as present under the root, read while the walk goes on (this
        // thread would otherwise wait for its first chunks): on an unchanged tree it was a quarter
        // of what the run did after the walk. Read before this run writes anything, it leaves out
        // only rows the run writes, all of them for paths the walk sees, and keeps rows the run
        // marks removed, all of them at paths the walk saw: what is unseen at the end is the same.
        // (Into an empty catalogue nothing is present, and nothing is marked removed below.)
        let live: (builds: [String], locations: [String]) = startedEmpty ? ([], []) : try writer.livePaths(under: root)
        let scannedBefore = report.filesScanned
        while let chunk = walk.channel.take() {
            for item in chunk {
                report.filesScanned += 1
                switch WalkThread.classify(item, stamps: stamps) {
                case .vanished(let path):
                    seen.insert(path)
                case .unchanged(let path, let skipped):
                    seen.insert(path)
                    report.filesUnchanged += 1
                    // Still left out: the summary says so each run, not only the run that read it.
                    if skipped {
                        report.filesSkipped += 1
                        if path.hasSuffix(".zip") { report.zipsSkipped += 1 }
                    }
                case .changed(let candidate, let stamp):
                    seen.insert(candidate.path)
                    pending.append((candidate, stamp))
                    if pending.count >= size {
                        try submit(pending, on: decoders)
                        pending.removeAll(keepingCapacity: true)
                    }
                    reportProgress()
                }
            }
        }
        let walker = walk.finished()
        if !pending.isEmpty { try submit(pending, on: decoders) }
        try drain(on: decoders)
        // AppleDouble sidecars are not read; the summary's skipped count includes them.
        report.filesSkipped += walker.skippedAppleDouble
        report.sidecarsSkipped += walker.skippedAppleDouble
        for problem in walker.problems {
            if problem.path == root && problem.contentsUnknown {
                // The root could not be read at all: an error of the run, not a warning about one
                // file (the command exits 1 for it).
                rootReadable = false
                report.failedRoots.append((root, problem.message))
                report.errors.append((root, problem.message))
                try writer.recordError(run: runID, path: root, message: problem.message)
            } else {
                try fail(problem.path, problem.message)
            }
        }
        // A root that could not be read at all (an unmounted disk) marks nothing removed, and the
        // errors recorded under it stay current.
        guard rootReadable else { return false }
        // Nor does one that yields no file while the catalogue holds files there: an unmounted share
        // is an empty folder, and a root that vanished is not a root that was emptied.
        if report.filesScanned == scannedBefore {
            let empty = IngestReport.EmptyRoot(path: root, heldLocations: live.locations.count, heldBuilds: live.builds.count,
                                               refused: !options.allowEmpty && !(live.locations.isEmpty && live.builds.isEmpty))
            report.emptyRoots.append(empty)
            if empty.refused {
                let message = "found no files, but the catalogue holds " + Self.held(empty) + " under it"
                report.failedRoots.append((root, message))
                report.errors.append((root, message))
                try writer.recordError(run: runID, path: root, message: message)
                return false
            }
        }
        // Nor does a folder below it that could not be listed (permissions, a flaky mount).
        let folders = walker.problems.filter(\.contentsUnknown).map(\.path)
        let unknown = { (path: String) in
            folders.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
        // Into an empty catalogue both are no-ops that would still read back every row just written.
        if !startedEmpty {
            try markRemoved(live, knownStamps: stamps, except: unknown)
            try writer.touchLive(under: root, at: now)
        }
        // Every file in error is read again each run, so what this walk did not report is fixed or gone.
        try writer.clearErrors(under: root, before: runID, at: now, keep: unknown)
        return true
    }

    /// `3 profile locations and 1 build`: what an empty root held.
    private static func held(_ root: IngestReport.EmptyRoot) -> String {
        func count(_ n: Int, _ noun: String) -> String? { n == 0 ? nil : "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return [count(root.heldLocations, "profile location"), count(root.heldBuilds, "build")]
            .compactMap { $0 }.joined(separator: " and ")
    }

    /// Rows stored under another spelling of a root walked this run (by a version that did not
    /// resolve roots, or from a duplicate root) are marked removed: those files are catalogued under
    /// the on-disk spelling now. What this run saw under the alias itself is kept.
    private func retire(alias: String) throws {
        let stamps = try writer.fileStamps(under: alias)
        try markRemoved(writer.livePaths(under: alias), knownStamps: stamps, except: { _ in false })
        // Errors recorded under that spelling are met under the on-disk one now.
        try writer.clearErrors(under: alias, before: runID, at: now)
    }

    // MARK: Decoding a batch

    /// What decoding one candidate produced. Boxed (`indirect`): an outcome is copied from its
    /// worker's list into the batch's and read again by the writer, and a profile's model, copied
    /// unboxed, is two dozen references to retain and release each time.
    private indirect enum Outcome: Sendable {
        case profile(ProvisioningProfile)
        /// The same bytes as a file another worker claimed first in this run.
        case duplicate(sha256: String)
        case build(BuildArtifact)
        /// A zip's builds (an `.ipa`'s or an app zip's): the app, then each bundle nested in it that
        /// is a build of its own, and why any other nested bundle did not read.
        case builds([BuildArtifact], problems: [DecodeError])
        /// dSYMs kept outside an archive: a `.dSYM` folder's, or a zip's.
        case debugSymbols([LooseDebugSymbols])
        case skipped(String)
        case failed(DecodeError)
        case none

        /// The profiles this outcome decoded: a profile file's, or the ones its builds embed.
        var decodedProfiles: [ProvisioningProfile] {
            switch self {
            case .profile(let profile): return [profile]
            case .build(let artifact): return artifact.profile.map { [$0] } ?? []
            case .builds(let artifacts, _): return artifacts.compactMap(\.profile)
            default: return []
            }
        }
    }

    /// A batch being decoded on other threads, each worker's outcomes with their indexes, and how to
    /// wait for them.
    private typealias Decoding = (batch: [(Candidate, CatalogWriter.FileStamp)], group: DispatchGroup,
                                  result: [BatchBox<[(Int, Decoded)]>])

    /// Batches submitted and not written yet, oldest first: decoded, decoding, or waiting for the
    /// one before them to be decoded.
    private var inFlight: [Decoding] = []

    /// How many batches may be decoded (or decoding) ahead of the one being written. With one, the
    /// decoders stopped at the end of each batch until this thread had written the one before it;
    /// each batch in advance holds its decoded models, so more would cost memory.
    /// Kept for speed: cold ingest (bench.py).
    static let decodeAhead = 2

    /// Queues `batch` for decoding on `decoders`, one job per core, then writes the oldest batches
    /// until no more than ``decodeAhead`` are left: the workers decode while this thread writes.
    /// The walk streams, so only a few batches of paths and decoded models exist at any moment,
    /// however large the tree. Batches are decoded one after the other, never two at once (each starts when
    /// the one before it is decoded): a batch's shared content is then always claimed by itself or
    /// an earlier batch, which is written first. Outcomes are written in walk order whichever
    /// worker decoded them, so the catalogue does not depend on the timing.
    private func submit(_ batch: [(Candidate, CatalogWriter.FileStamp)], on decoders: DecodeWorkers) throws {
        let group = DispatchGroup()
        let claims = claims
        let queue = DecodeQueue(count: batch.count)
        let workers = (0..<min(DecodeQueue.workers, batch.count)).map { _ in BatchBox<[(Int, Decoded)]>() }
        for _ in workers { group.enter() }
        let start: @Sendable () -> Void = {
            for (worker, box) in workers.enumerated() {
                decoders.run(on: worker) {
                    var done: [(Int, Decoded)] = []
                    while let index = queue.take() {
                        done.append((index, Self.decode(batch[index].0, claims: claims)))
                    }
                    box.value = done
                    group.leave()
                }
            }
        }
        if let previous = inFlight.last {
            previous.group.notify(queue: .global(), execute: start)
        } else {
            start()
        }
        inFlight.append((batch, group, workers))
        while inFlight.count > Self.decodeAhead { try writeOldest(on: decoders) }
    }

    /// Writes the oldest batch in flight once its decoding is done.
    private func writeOldest(on decoders: DecodeWorkers) throws {
        let oldest = inFlight.removeFirst()
        oldest.group.wait()
        try write(oldest.batch, Self.merge(oldest.result, count: oldest.batch.count))
        // What each worker decoded is freed by its own thread (``DecodeWorkers/run(on:_:)``): this
        // thread holds none of it any more (the merged outcomes died with the call above), and
        // freeing it here would take the writing thread's time.
        for (worker, box) in oldest.result.enumerated() {
            decoders.run(on: worker) { box.value = nil }
        }
    }

    /// The workers' outcomes in batch order (each worker took whichever index came next).
    private static func merge(_ workers: [BatchBox<[(Int, Decoded)]>], count: Int) -> [Decoded] {
        var outcomes = [Decoded](repeating: Decoded(outcome: .none, compact: [:]), count: count)
        for box in workers { for (index, decoded) in box.value ?? [] { outcomes[index] = decoded } }
        return outcomes
    }

    /// What a worker made of one candidate: the outcome, and the stored form of the raw plist of each
    /// profile it decoded, by content hash (compacting is CPU work, done on the worker rather than the writer).
    private struct Decoded: Sendable {
        var outcome: Outcome
        var compact: [String: StoredPlist.Encoded]

        init(outcome: Outcome, compact: [String: StoredPlist.Encoded]) {
            self.outcome = outcome
            self.compact = compact
        }

        init(_ outcome: Outcome) {
            var compact: [String: StoredPlist.Encoded] = [:]
            for profile in outcome.decodedProfiles where compact[profile.sha256] == nil {
                compact[profile.sha256] = StoredPlist.encode(profile)
            }
            self.init(outcome: outcome, compact: compact)
        }
    }

    /// Writes every batch still in flight, in order.
    private func drain(on decoders: DecodeWorkers) throws {
        while !inFlight.isEmpty { try writeOldest(on: decoders) }
    }

    /// Reads, hashes and decodes one candidate on the calling thread. A profile whose bytes another
    /// file of this run already claimed is not decoded again.
    private static func decode(_ candidate: Candidate, claims: ContentClaims) -> Decoded {
        let outcome: Outcome
        if candidate.kind == .profile {
            do {
                let bytes = try FileBytes.read(candidate.path, limit: ProfileDecoder.maximumSize)
                let sha = Digest.sha256Hex(bytes)
                outcome = claims.claim(sha) ? decode(candidate, read: .success((bytes, sha)), claims: claims)
                                            : .duplicate(sha256: sha)
            } catch let error as DecodeError {
                outcome = .failed(error.at(path: candidate.path))
            } catch {
                outcome = .failed(DecodeError(.unreadable, "\(error)", path: candidate.path))
            }
        } else {
            outcome = decode(candidate, read: nil, claims: claims)
        }
        return Decoded(outcome)
    }

    /// Writes a decoded batch in walk order. Which thread decoded a shared profile depends on timing,
    /// so an entry that refers to content decoded by a later entry of the batch stores that profile
    /// first: the catalogue comes out the same whichever thread won.
    private func write(_ batch: [(Candidate, CatalogWriter.FileStamp)], _ decoded: [Decoded]) throws {
        for entry in decoded {
            for profile in entry.outcome.decodedProfiles {
                batchProfiles[profile.sha256] = profile
                if let compact = entry.compact[profile.sha256] { compactBySHA[profile.sha256] = compact }
            }
        }
        defer {
            compactBySHA.removeAll(keepingCapacity: true)
            batchProfiles.removeAll(keepingCapacity: true)
        }
        let outcomes = decoded.map(\.outcome)
        for index in batch.indices {
            for (sha, artifact) in Self.awaitedProfiles(outcomes[index]) where profileBySHA[sha] == nil {
                guard let profile = batchProfiles[sha] else { continue }
                // Named as it would be had this entry decoded it: a build by its embedded profile's path.
                try storeOnce(profile, path: artifact.map(embeddedProfilePath) ?? batch[index].0.path)
            }
            try write(batch[index].0, stamp: batch[index].1, outcome: outcomes[index])
        }
    }

    /// The content hashes an outcome refers to without having decoded them: a duplicate file's, or
    /// those of builds whose embedded profile another file of the run decoded (with the build).
    private static func awaitedProfiles(_ outcome: Outcome) -> [(String, BuildArtifact?)] {
        func awaited(_ artifact: BuildArtifact) -> (String, BuildArtifact?)? {
            guard artifact.profile == nil, artifact.profileError == nil, let sha = artifact.embeddedProfileSHA256 else { return nil }
            return (sha, artifact)
        }
        switch outcome {
        case .duplicate(let sha): return [(sha, nil)]
        case .build(let artifact): return awaited(artifact).map { [$0] } ?? []
        case .builds(let artifacts, _): return artifacts.compactMap(awaited)
        default: return []
        }
    }

    private static func decode(_ candidate: Candidate, read: Result<([UInt8], String), DecodeError>?,
                               claims: ContentClaims) -> Outcome {
        // An embedded profile whose bytes another file of this run claimed is not decoded again.
        let policy: EmbeddedProfilePolicy = { claims.claim($0) }
        do {
            switch candidate.kind {
            case .profile:
                switch read {
                case .success(let (bytes, sha))?:
                    return .profile(try ProfileDecoder.decode(bytes, path: candidate.path, sha256: sha))
                case .failure(let error)?: return .failed(error)
                case nil: return .failed(DecodeError(.unreadable, "not read", path: candidate.path))
                }
            case .app:
                return .build(try AppBundleReader.read(candidate.path, policy: policy))
            case .xcarchive:
                return .build(try ArchiveReader.read(candidate.path, policy: policy))
            case .ipa:
                let archive = try ZipArchive(path: candidate.path)
                guard let app = IPAReader.appPrefix(in: archive.entries) else {
                    throw DecodeError(.invalidBundle, "no Payload/*.app in archive", path: candidate.path)
                }
                let read = try IPAReader.readBuilds(archive, app: app, kind: .ipa, policy: policy)
                return .builds(read.builds, problems: read.problems)
            case .dsym:
                return .debugSymbols([try LooseDebugSymbols.read(folder: candidate.path)])
            case .zip:
                // Only zips of an app or of dSYMs are catalogued, told apart by the central directory:
                // one that does not read as a zip is no more either than a zip of sources is, and left
                // out the same way (counted as skipped).
                let archive: ZipArchive
                do { archive = try ZipArchive(path: candidate.path) } catch { return .skipped("not a readable zip") }
                if let app = IPAReader.topLevelAppPrefix(in: archive.entries) {
                    let read = try IPAReader.readBuilds(archive, app: app, kind: .zip, policy: policy)
                    return .builds(read.builds, problems: read.problems)
                }
                guard let bundles = LooseDebugSymbols.read(zip: archive) else { return .skipped("a zip without an app or dSYMs") }
                return .debugSymbols(bundles)
            case .infoPlist:
                let bytes = try FileBytes.read(candidate.path, limit: AppInfoDecoder.maximumSize)
                guard PlistSniffer.looksLikePlist(bytes) else { return .skipped("not a property list") }
                // A stray Info.plist that does not parse is a template or a build-system file, not a
                // broken build: counted as skipped so the nightly run does not warn about it forever.
                guard let info = try? AppInfoDecoder.decode(bytes, path: candidate.path) else {
                    return .skipped("not a parseable property list")
                }
                if info.unresolved { return .skipped("build-setting placeholders") }
                guard info.bundleID != nil, info.rawShortVersion != nil || info.rawBuild != nil,
                      info.packageType == nil || info.packageType == "APPL" else {
                    return .skipped("not an app Info.plist")
                }
                return .build(BuildArtifact(sourceKind: .plist, path: candidate.path, info: info))
            }
        } catch let error as DecodeError {
            return .failed(error.at(path: candidate.path))
        } catch {
            return .failed(DecodeError(.unreadable, "\(error)", path: candidate.path))
        }
    }

    // MARK: Writing

    private func write(_ candidate: Candidate, stamp: CatalogWriter.FileStamp, outcome: Outcome) throws {
        let mtime = Date(timeIntervalSince1970: Double(stamp.mtimeNanoseconds) / 1e9)
        var status = FileStatus.ok
        var sha: String?
        let errorsBefore = report.errors.count
        switch outcome {
        case .profile(let profile):
            if countedProfileContents.insert(profile.sha256).inserted { report.filesDecoded += 1 }
            try storeOnce(profile, path: candidate.path)
            warn(candidate.path, profile)
            sha = profile.sha256
            try writer.recordLocation(path: candidate.path, profileUUID: profile.uuid, containerKind: .standalone,
                                      containerPath: nil, size: stamp.size, mtime: mtime, sha256: profile.sha256, at: now)
        case .duplicate(let hash) where profileBySHA[hash] != nil:
            if countedProfileContents.insert(hash).inserted { report.filesDecoded += 1 }
            try recordKnown(uuid: profileBySHA[hash] ?? "", sha256: hash, candidate: candidate, stamp: stamp, mtime: mtime)
            sha = hash
        case .duplicate:
            // Its twin in this batch failed to decode; so does this copy.
            try failCatalogued(candidate, "same content as a file that failed to decode")
        case .build(let artifact):
            report.filesDecoded += 1
            try store(artifact, candidate: candidate, stamp: stamp, mtime: mtime)
        case .builds(let artifacts, let problems):
            report.filesDecoded += 1
            try store(artifacts, candidate: candidate, stamp: stamp, mtime: mtime)
            for problem in problems { try fail(problem.path ?? candidate.path, problem.message) }
        case .debugSymbols(let bundles):
            report.filesDecoded += 1
            // A zip that held an app before holds dSYMs now: its builds are gone.
            report.buildsRemoved += try writer.markBuildsRemoved(path: candidate.path, keeping: [], at: now)
            try writer.recordDebugSymbols(path: candidate.path, bundles, at: now)
            // A DWARF file that is not a readable Mach-O is a problem; the others are recorded.
            for file in bundles.flatMap(\.files) {
                if let error = file.error { try fail(error.path ?? candidate.path, error.message) }
            }
        case .skipped:
            report.filesDecoded += 1
            report.filesSkipped += 1
            if candidate.kind == .zip {
                report.zipsSkipped += 1
                // What it held before (an app, dSYMs) is no longer there.
                report.buildsRemoved += try writer.markBuildRemoved(path: candidate.path, at: now)
            }
            status = .skipped
        case .failed(let error):
            report.filesDecoded += 1
            try failCatalogued(candidate, error.message, at: error.path ?? candidate.path)
        case .none:
            return
        }
        report.filesRead += 1
        // A file that recorded an error (its own, or its embedded profile's) is read again next run,
        // so each run reports every problem still present under the roots it walked.
        if report.errors.count > errorsBefore { status = .error }
        var recorded = stamp
        recorded.status = status
        try writer.recordFile(candidate.path, stamp: recorded, kind: candidate.kind.rawValue, sha256: sha, run: runID)
        try checkTestHooks()
        reportProgress()
    }

    /// A file that no longer decodes: an error, and whatever the catalogue found in it before (its
    /// profile location, its builds and their embedded profiles) stops being present.
    private func failCatalogued(_ candidate: Candidate, _ message: String, at errorPath: String? = nil) throws {
        try fail(errorPath ?? candidate.path, message)
        lostProfiles.formUnion(try writer.failLocations(path: candidate.path, message: message, at: now))
        if candidate.kind != .profile {
            report.buildsRemoved += try writer.failBuilds(path: candidate.path, message: message, at: now)
        }
    }

    /// A standalone file whose content is already catalogued: only its location is recorded.
    private func recordKnown(uuid: String, sha256: String, candidate: Candidate, stamp: CatalogWriter.FileStamp,
                             mtime: Date) throws {
        profileBySHA[sha256] = uuid
        try writer.touchProfile(uuid, at: now)
        try writer.recordLocation(path: candidate.path, profileUUID: uuid, containerKind: .standalone,
                                  containerPath: nil, size: stamp.size, mtime: mtime, sha256: sha256, at: now)
    }

    /// Stores a decoded profile the first time its content is met in the run.
    /// An `invalid` signature (content or signature changed after signing) is worth a warning; the
    /// profile is still catalogued, with its status, so `profiles --signature invalid` finds it.
    private func storeOnce(_ profile: ProvisioningProfile, path: String) throws {
        guard profileBySHA[profile.sha256] == nil else { return }
        try store(profile)
        profileBySHA[profile.sha256] = profile.uuid
        if let signature = profile.signature, signature.status == .invalid {
            onWarning(path, "profile \(profile.uuid) has an invalid signature: \(signature.reason)")
        }
        warnRefusedRenewals(at: path)
    }

    /// Warns about each profile the writer found claiming to renew a verified one that its
    /// signature does not let it renew, at `path` (the file being ingested) unless the writer names
    /// the claimant's.
    private func warnRefusedRenewals(at path: String) {
        for refused in writer.takeRefusedRenewals() {
            let signature = refused.claimantSignature.map { "is \($0.rawValue)" } ?? "was never verified"
            onWarning(refused.path ?? path, "profile \(refused.claimant) claims to renew verified profile \(refused.verified) "
                      + "but does not supersede it: its signature \(signature), and only a verified profile renews a verified one")
        }
    }

    private func store(_ profile: ProvisioningProfile) throws {
        switch try writer.upsertProfile(profile, at: now, rewrite: options.full, compact: compactBySHA[profile.sha256]) {
        case .new: report.profilesNew += 1
        case .renewed: report.profilesRenewed += 1
        case .updated, .unchanged: break
        }
    }

    /// A zip's builds, the app first: each nested one's parent is the build whose app folder holds it
    /// most closely. Builds and embedded profiles recorded in the zip before and not read now are
    /// marked removed, and so are dSYMs a zip held before it held an app.
    private func store(_ artifacts: [BuildArtifact], candidate: Candidate, stamp: CatalogWriter.FileStamp, mtime: Date) throws {
        var ids: [(appPath: String, id: Int64)] = []
        for (index, artifact) in artifacts.enumerated() {
            let appPath = artifact.appPath ?? ""
            let parent = ids.filter { appPath.hasPrefix($0.appPath + "/") }.max { $0.appPath.count < $1.appPath.count }
            let id = try store(artifact, candidate: candidate, stamp: stamp, mtime: mtime,
                               parent: index == 0 ? .container : .build(parent?.id))
            ids.append((appPath, id))
        }
        report.buildsRemoved += try writer.markBuildsRemoved(path: candidate.path, keeping: Set(ids.map(\.appPath)), at: now)
        let embedded = Set(artifacts.compactMap(\.embeddedProfilePath))
        lostProfiles.formUnion(try writer.markMembersRemoved(container: candidate.path, keeping: embedded, at: now))
        if candidate.kind == .zip { try writer.recordDebugSymbols(path: candidate.path, [], at: now) }
    }

    /// Whose child a build is: the candidate's parent (a bundle nested in an `.app` folder), or a
    /// build of the same zip.
    private enum BuildParent {
        case container
        case build(Int64?)
    }

    @discardableResult
    private func store(_ artifact: BuildArtifact, candidate: Candidate, stamp: CatalogWriter.FileStamp, mtime: Date,
                       parent: BuildParent = .container) throws -> Int64 {
        var artifact = artifact
        // The embedded profile: decoded here, or content another file of this run decoded.
        var profileUUID: String?
        if let profile = artifact.profile {
            try storeOnce(profile, path: embeddedProfilePath(artifact))
            warn(embeddedProfilePath(artifact), profile)
            profileUUID = profile.uuid
        } else if let sha = artifact.embeddedProfileSHA256, artifact.profileError == nil {
            if let uuid = profileBySHA[sha] {
                profileUUID = uuid
                // The signing checks need the profile itself, as decode would have read it.
                if let main = artifact.signingSubjects.firstIndex(where: { $0.role == .main && $0.profile == nil }) {
                    artifact.signingSubjects[main].profile = signingProfile(sha256: sha, uuid: uuid)
                }
            } else {
                try failEmbedded(artifact, at: embeddedProfilePath(artifact), "same content as a profile that failed to decode")
            }
        }
        if let error = artifact.profileError {
            try failEmbedded(artifact, at: error.path ?? candidate.path, error.message)
        }
        var parentID: Int64?
        switch parent {
        case .container:
            if let parent = candidate.parentPath {
                parentID = try buildIDs[parent] ?? writer.buildID(path: parent, appPath: "")
            }
        case .build(let id):
            parentID = id
        }
        let result = try writer.upsertBuild(artifact, appPath: artifact.sourceKind == .app ? "" : (artifact.appPath ?? ""),
                                            profileUUID: profileUUID, parentID: parentID, size: stamp.size,
                                            mtime: mtime, at: now)
        if case .container = parent { buildIDs[candidate.path] = result.id }
        report.buildsSeen += 1
        if result.isNew { report.buildsNew += 1 }
        // The embedded profile's location: inside the bundle, or inside the archive file.
        // (A stray Info.plist embeds no profile: it has no container kind.)
        if let profileUUID, let container = ContainerKind(artifact.sourceKind) {
            try writer.recordLocation(path: embeddedProfilePath(artifact), profileUUID: profileUUID,
                                      containerKind: container, containerPath: candidate.path,
                                      size: nil, mtime: mtime, sha256: artifact.embeddedProfileSHA256, at: now)
        }
        return result.id
    }

    /// The profile of content `sha256` (catalogued as `uuid`) that another file of the run decoded:
    /// from this batch, else as read before, else decoded again from the plist the catalogue
    /// stored for it (an earlier batch's; its signature was judged then). Nil when that cannot be
    /// read: the checks that need the profile are left out, as for a profile that does not decode.
    private func signingProfile(sha256: String, uuid: String) -> ProvisioningProfile? {
        if let known = signingProfiles[sha256] { return known }
        var profile = batchProfiles[sha256]
        if profile == nil, let plist = (try? writer.rawPlist(uuid: uuid)) ?? nil {
            profile = try? ProfileDecoder.decode(plist, trust: nil)
        }
        if signingProfiles.count >= 256 { signingProfiles.removeAll() }
        signingProfiles[sha256] = profile
        return profile
    }

    /// A build whose embedded profile does not decode: an error, and the profile found there before
    /// is no longer present there.
    private func failEmbedded(_ artifact: BuildArtifact, at errorPath: String, _ message: String) throws {
        try fail(errorPath, message)
        lostProfiles.formUnion(try writer.failLocations(path: embeddedProfilePath(artifact), message: message, at: now))
    }

    private func embeddedProfilePath(_ artifact: BuildArtifact) -> String {
        if let path = artifact.embeddedProfilePath { return path }
        switch artifact.sourceKind {
        case .ipa, .zip:
            return artifact.path + "!" + (artifact.appPath ?? "Payload") + "/embedded.mobileprovision"
        case .xcarchive:
            let app = artifact.path + "/" + (artifact.appPath ?? "")
            return AppBundleReader.layout(of: app)?.profile ?? app + "/embedded.mobileprovision"
        case .app, .plist:
            return AppBundleReader.layout(of: artifact.path)?.profile ?? artifact.path + "/embedded.mobileprovision"
        }
    }

    /// What a profile's decoding accepted although not quite right (an undecodable certificate, a
    /// trailing newline): reported like a bad file, but the file is catalogued and is not an error.
    private func warn(_ path: String, _ profile: ProvisioningProfile) {
        for warning in profile.warnings { onWarning(path, warning) }
    }

    private func fail(_ path: String, _ message: String) throws {
        report.errors.append((path, message))
        try writer.recordError(run: runID, path: path, message: message)
        onWarning(path, message)
    }

    // MARK: End of a root

    /// Whatever the catalogue held as present under the root (`live`) but this walk did not see is
    /// marked removed (never deleted); the incremental index forgets it.
    private func markRemoved(_ live: (builds: [String], locations: [String]),
                             knownStamps: [String: CatalogWriter.FileStamp],
                             except unknown: (String) -> Bool) throws {
        for path in live.builds where !seen.contains(path) && !unknown(path) {
            report.buildsRemoved += try writer.markBuildRemoved(path: path, at: now)
        }
        var goneLocations: [String] = []
        for path in live.locations where !seen.contains(path) && !seen.contains(containerOf(path)) && !unknown(path) {
            goneLocations.append(path)
        }
        lostProfiles.formUnion(try writer.profileUUIDs(atLocations: goneLocations))
        for path in goneLocations { try writer.markLocationRemoved(path: path, at: now) }
        for path in knownStamps.keys where !seen.contains(path) && !unknown(path) { try writer.forgetFile(path) }
    }

    /// `X.ipa!Payload/…` → `X.ipa`; `…/X.app/embedded.mobileprovision` → `…/X.app`, and so on.
    /// Searches the UTF-8 bytes: `!` and `/` are ASCII, so each byte found is a character boundary,
    /// and walking `Character`s (grapheme breaking) was a third of an unchanged re-ingest's
    /// `markRemoved`, which runs it for every embedded profile's location.
    private func containerOf(_ location: String) -> String {
        let utf8 = location.utf8
        if let bang = utf8.firstIndex(of: UInt8(ascii: "!")) { return String(location[..<bang]) }
        var end = utf8.endIndex
        while let slash = utf8[..<end].lastIndex(of: UInt8(ascii: "/")), slash > utf8.startIndex {
            let path = String(location[..<slash])
            if seen.contains(path) { return path }
            end = slash
        }
        return location
    }

    // MARK: Progress and test hooks

    private func reportProgress() {
        let clock = Date()
        guard clock.timeIntervalSince(lastProgress) >= 0.2 else { return }
        lastProgress = clock
        onProgress(Progress(scanned: report.filesScanned, decoded: report.filesDecoded,
                            elapsed: clock.timeIntervalSince(started)))
    }

    private func checkTestHooks() throws {
        #if CATALOG_TEST_HOOKS
        writes += 1
        if let limit = options.crashAfterWrites, writes >= limit {
            // Tests kill the process here, mid-transaction, to prove nothing half-written survives.
            kill(getpid(), SIGKILL)
        }
        if let limit = options.stopAfterWrites, writes == limit {
            // Tests stop the process here, mid-transaction, to query the catalogue while a run holds it.
            kill(getpid(), SIGSTOP)
        }
        #endif
    }
}
