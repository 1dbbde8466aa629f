import ViewfinderCore

extension Array where Element == String {
    /// Facts about one thing as a person reads them, in their language: "60 frames, 2 s from
    /// 0 s, 640×360" (Chinese joins them with its own comma).
    func joinedAsDetails() -> String {
        guard var text = first else { return "" }
        for detail in dropFirst() {
            // TRANSLATORS: facts about one thing, one more added: {details} is "60 frames, 2 s from 0 s", {detail} "640×360".
            text = tr("{details}, {detail}", ["details": text, "detail": detail])
        }
        return text
    }
}
