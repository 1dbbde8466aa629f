import Foundation
import Testing
import ViewfinderCore

@Suite("Motion Photo layout from XMP")
struct MotionPhotoLayoutTests {
    @Test("the container directory's MotionPhoto item, whatever the namespace prefix")
    func directory() {
        let xmp = """
        <x:xmpmeta><rdf:RDF><rdf:Description GCamera:MotionPhoto="1" GCamera:MotionPhotoPresentationTimestampUs='1250000'>
        <Container:Directory><rdf:Seq>
        <rdf:li><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0"/></rdf:li>
        <rdf:li><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="4000"/></rdf:li>
        </rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>
        """
        #expect(MotionPhotoLayout(xmp: xmp, fileSize: 10_000) == MotionPhotoLayout(offset: 6000, length: 4000,
                                                                                 presentationTime: MediaTime(value: 5, timescale: 4)))
    }

    @Test("MicroVideo with MicroVideoOffset; no flag, or a video longer than the file, is none")
    func microVideo() {
        #expect(MotionPhotoLayout(xmp: #"<d Camera:MicroVideo="1" Camera:MicroVideoOffset="300"/>"#, fileSize: 1000)
                == MotionPhotoLayout(offset: 700, length: 300))
        #expect(MotionPhotoLayout(xmp: "<d><GCamera:MicroVideo>1</GCamera:MicroVideo>\n<GCamera:MicroVideoOffset> 250 </GCamera:MicroVideoOffset></d>",
                                  fileSize: 1000) == MotionPhotoLayout(offset: 750, length: 250))
        #expect(MotionPhotoLayout(xmp: #"<d Camera:MicroVideoOffset="300"/>"#, fileSize: 1000) == nil)
        #expect(MotionPhotoLayout(xmp: #"<d Camera:MicroVideo="1" Camera:MicroVideoOffset="3000"/>"#, fileSize: 1000) == nil)
        #expect(MotionPhotoLayout(xmp: #"<d Camera:MotionPhoto="0"/><Container:Item Item:Semantic="MotionPhoto" Item:Length="10"/>"#,
                                  fileSize: 1000) == nil)
    }
}
