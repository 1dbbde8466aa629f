internal import CFFmpeg
import Foundation
import ViewfinderCore

extension PacketIndex {
    /// Where a demuxed packet of the stream lies in decode order.
    package func position(of packet: OwnedPacket) -> Int? {
        guard let key = keyedByPresentation ? packet.pts : (packet.dts ?? packet.pts) else { return nil }
        return position[key]
    }

    /// Reads every video packet's timestamps and flags (no decoding), then rewinds; nil when
    /// `isCancelled` says, between two packets, that the export was cancelled.
    static func scan(_ container: MediaContainer, video: UnsafeMutablePointer<AVStream>, track: SmartTrack?,
                     isCancelled: () -> Bool) throws(MediaIOError) -> PacketIndex? {
        container.rewind()
        defer { container.rewind() }
        var entries: [Entry] = []
        var keys: [Int64] = []
        var hasDecodeTimes = true
        var end = Int64.min
        let index = video.pointee.index
        var openGOPs: OpenGOPStarts?
        if case .avc(let configuration) = track { openGOPs = OpenGOPStarts(configuration: configuration) }
        while let packet = try container.readPacket(onDamage: .fail, accepting: { $0 == index }) {
            if isCancelled() { return nil }
            let p = packet.pointer.pointee
            guard let pts = packet.pts else { continue }
            var kind = PictureKind.other
            if let track, let data = p.data {
                kind = track.kind(of: UnsafeBufferPointer(start: data, count: Int(p.size)))
                // A random access point the container does not mark as one is not trusted.
                if !packet.isKeyframe && kind != .leading { kind = .other }
                openGOPs?.scan(UnsafeBufferPointer(start: data, count: Int(p.size)), position: entries.count, pts: pts,
                               isKeyframe: packet.isKeyframe, kind: kind)
            }
            entries.append(Entry(pts: pts, dts: packet.dts ?? pts, isKeyframe: packet.isKeyframe, kind: kind,
                                 isDiscarded: packet.isDiscarded))
            keys.append(packet.dts ?? pts)
            if packet.dts == nil { hasDecodeTimes = false }
            if !packet.isDiscarded { end = max(end, pts + max(p.duration, 1)) }
        }
        openGOPs?.finish()
        for start in openGOPs?.starts ?? [] {
            entries[start.position].kind = .cleanRandomAccess
            for k in (start.position + 1)..<start.leadingEnd { entries[k].kind = .leading }
        }
        return PacketIndex(entries: entries, keys: keys, end: end == Int64.min ? 0 : end, hasDecodeTimes: hasDecodeTimes)
    }
}
