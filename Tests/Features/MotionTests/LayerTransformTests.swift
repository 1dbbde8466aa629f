import Testing

@testable import Motion

@Suite("Layer transforms")
struct LayerTransformTests {
    @Test("the identity scales by one and neither turns nor moves")
    func identity() {
        let identity = LayerTransform.identity
        #expect(identity.scale == .one)
        #expect(identity.rotation == .zero && identity.translation == .zero && identity.perspective == 0)
        #expect(LayerTransform(scale: Vector3(all: 2)) != identity)
    }
}
