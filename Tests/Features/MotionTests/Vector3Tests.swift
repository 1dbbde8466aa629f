import Testing

@testable import Motion

@Suite("Vector3")
struct Vector3Tests {
    @Test("the axis subscript reads and writes the matching component")
    func axisSubscript() {
        var vector = Vector3(x: 1, y: 2, z: 3)
        #expect(Axis.allCases.map { vector[$0] } == [1, 2, 3])
        vector[.z] = 9
        vector[.x] = 7
        #expect(vector == Vector3(x: 7, y: 2, z: 9))
        #expect(Vector3(all: 4) == Vector3(x: 4, y: 4, z: 4))
    }
}
