import Foundation
import ViewfinderCore

extension ProgressHUD {
    /// Follows `progress`: switches to `mode` (a pie by default), shows the HUD, and, unless
    /// `cancelTitle` is nil, adds a button that cancels the work through `progress.cancel()`.
    public func follow(_ progress: Progress, mode: HUDMode = .determinate, cancelTitle: String? = tr("Cancel")) {
        self.mode = mode
        observedProgress = progress
        if let cancelTitle {
            setCancelButton(title: cancelTitle)
        }
        show()
    }

    /// Makes the button cancel whatever `observedProgress` is when it is pressed, so the worker
    /// sees `isCancelled` and stops. The HUD itself stays until it is hidden: the worker decides
    /// when it has finished cancelling.
    public func setCancelButton(title: String = tr("Cancel")) {
        button = HUDButton(title: title) { [weak self] in
            self?.observedProgress?.cancel()
        }
    }

    /// Copies the observed object's fraction into `progress`. An object with no total yet reads
    /// as 0 rather than NaN.
    func pollObservedProgress() {
        guard let observed = observedProgress else { return }
        progress = observed.fractionCompleted
    }
}
