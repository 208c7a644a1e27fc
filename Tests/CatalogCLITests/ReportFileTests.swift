import CatalogTestSupport
import Foundation
import Testing

/// `report --html FILE` that cannot be written says why in words: the folder is missing, or FILE is
/// a folder; nothing is left behind.
@Suite(.timeLimit(.minutes(10))) struct ReportFileTests {
    typealias Catalogue = QueryCommandTests.Catalogue

    @Test func aMissingFolderIsNamed() throws {
        let catalogue = try Catalogue()
        let folder = catalogue.folder + "/missing/dir"
        let result = try catalogue.run(["report", "--html", folder + "/x.html"])
        #expect(result.status == 1)
        #expect(result.stderr == "error: cannot write \(folder)/x.html: the folder \(folder) does not exist\n", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: catalogue.folder + "/missing"))
        let intoAFolder = try catalogue.run(["report", "--html", catalogue.folder])
        #expect(intoAFolder.status == 1)
        #expect(intoAFolder.stderr == "error: cannot write \(catalogue.folder): it is a folder\n", "\(intoAFolder.stderr)")
        let underAFile = try catalogue.run(["report", "--html", catalogue.db + "/x.html"])
        #expect(underAFile.status == 1)
        #expect(underAFile.stderr == "error: cannot write \(catalogue.db)/x.html: \(catalogue.db) is not a folder\n", "\(underAFile.stderr)")
    }
}
