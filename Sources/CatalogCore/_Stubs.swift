// TEMPORARY: replaced by helpers' files before merge.
import Foundation
package struct CMSSignedData { package let contentType: String = ""; package let content: [UInt8] = []; package let certificates: [[UInt8]] = []; package init(bytes: [UInt8]) throws {} }
extension DeveloperCertificate { package init(der: [UInt8]) throws { throw DecodeError(.malformedCertificate, "stub") } }
package enum PropertyListReader { package static func parse(_ bytes: [UInt8]) throws -> (value: PlistValue, format: PlistFormat) { throw DecodeError(.malformedPlist, "stub") }; package static let maximumDepth = 128 }
package struct ZipEntry: Sendable { package let name: String; package let method: UInt16; package let compressedSize: UInt64; package let uncompressedSize: UInt64; package let crc32: UInt32; package let localHeaderOffset: UInt64; package var isDirectory: Bool { name.hasSuffix("/") } }
package struct ZipArchive { package init(path: String) throws { self.path = path; entries = [] }; package let path: String; package let entries: [ZipEntry]; package func contents(of entry: ZipEntry, limit: Int) throws -> [UInt8] { [] } }
