import Testing
@testable import CatalogCore

@Suite struct DigestTests {
    @Test func knownVectors() {
        #expect(Digest.sha1Hex(Array("abc".utf8)) == "A9993E364706816ABA3E25717850C26C9CD0D89D")
        #expect(Digest.sha256Hex(Array("abc".utf8))
                == "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")
    }
}
