import Foundation
import Motion
import StudioKit
import ViewfinderCore

/// A Motion scene playing in the app (`viewfinder-studio --motion SCENE`): every layer a
/// widget on a `MotionStage`, moved, faded and turned in 3D by GTK frame by frame. It has no
/// result to hand back; Back leaves it.
@MainActor
public final class ScenePlayer: Component {
    /// The scene's file name.
    public let title: String
    /// The stage the scene plays on.
    public let stage: MotionStage
    /// Whether the scene is running (false while paused or held at an instant).
    public private(set) var isPlaying = false
    /// Told when the user leaves (Back).
    public var completion: ((PickerOutcome<Void>) -> Void)?

    private let box = Box(.vertical, spacing: 12)
    private lazy var playButton = Button(tr("Pause")) { [unowned self] in self.togglePlay() }
    private lazy var restartButton = Button(tr("Restart")) { [unowned self] in self.restart() }
    private lazy var backButton = Button(tr("Back")) { [unowned self] in self.completion?(.cancelled) }
    private let url: URL
    private let scene: Scene

    /// A player for the scene in `url`, its pictures found beside it. Throws the scene's error
    /// (one line) when the file cannot be read or is not a scene.
    public init(contentsOf url: URL) throws(SceneError) {
        self.url = url
        scene = try Scene.load(contentsOf: url)
        title = url.lastPathComponent
        stage = MotionStage(playing: scene, imageDirectory: url.deletingLastPathComponent())
        stage.view.align(horizontal: .center, vertical: .center)
        stage.view.name = "stage"
        stage.view.setAccessibleName(tr("Scene {name}", ["name": title]))
        let frame = ScrolledWindow(stage.view)
        frame.expand()
        box.setMargins(12)
        box.append(frame)
        box.append(buttonRow([backButton], [restartButton, playButton]))
        playButton.setAccessibleName(tr("Pause or play the scene"))
        play()
    }

    public var page: Widget { box }

    public func leave() { stage.stop() }

    public func button(named name: String) -> Widget? {
        ["play": playButton, "restart": restartButton, "back": backButton][name]
    }

    public func part(named name: String) -> Widget? { name == "stage" ? stage.view : nil }

    /// Makes `widget` the face of the scene's first layer named `name` (depth first): any
    /// widget, buttons included, then moves, fades and turns with that layer and takes input
    /// where it is drawn. False when the scene has no such layer.
    @discardableResult
    public func attach(_ widget: Widget, toLayerNamed name: String) -> Bool {
        guard let layer = stage.root.layer(named: name) else { return false }
        stage.attach(widget, to: layer)
        return true
    }

    /// Shows the instant `t` seconds into the scene and stays there (paused). Instants before
    /// the one shown restart the scene first, since its stop events run forwards only.
    public func hold(at t: Double) {
        if t < stage.time { rebuild() }
        stage.hold(at: t)
        isPlaying = false
        playButton.title = tr("Play")
    }

    private func play() {
        stage.play()
        isPlaying = true
        playButton.title = tr("Pause")
    }

    private func togglePlay() {
        if isPlaying {
            stage.hold(at: stage.time)
            isPlaying = false
            playButton.title = tr("Play")
        } else {
            play()
        }
    }

    private func restart() {
        rebuild()
        play()
    }

    /// A fresh stage in place of the old, at the scene's start.
    private func rebuild() {
        // The stage's tree has run forwards; a new one starts again from the file's values.
        stage.restart(with: scene.makeLayerTree())
    }
}
