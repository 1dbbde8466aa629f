import StudioKit

/// The HUD on any widget, as MBProgressHUD's showHUDAddedTo / HUDForView / hideHUDForView: an
/// `Overlay` (GTK's container for layered children) takes the HUD's drawing area over its child,
/// and the HUD is found again by that overlay.
extension HUDOverlay {
    /// The HUD shown on each host, by the host's identity.
    @MainActor private static var attached: [ObjectIdentifier: HUDOverlay] = [:]

    /// Shows a busy HUD labelled `label` over `host`'s child (after `graceTime`) and returns it;
    /// a HUD already on `host` is reused.
    @discardableResult
    public static func show(on host: Overlay, label: String = "", graceTime: Double = 0) -> HUDOverlay {
        let overlay = hud(on: host) ?? {
            let made = HUDOverlay()
            made.place(on: host)
            made.backdropSource = host
            attached[ObjectIdentifier(host)] = made
            return made
        }()
        overlay.showBusy(label: label, graceTime: graceTime)
        return overlay
    }

    /// The HUD shown on `host`, if any.
    public static func hud(on host: Overlay) -> HUDOverlay? {
        attached[ObjectIdentifier(host)]
    }

    /// Hides the HUD on `host` (its minimum show time still holds) and forgets it; false when
    /// there was none.
    @discardableResult
    public static func hide(on host: Overlay) -> Bool {
        guard let overlay = attached.removeValue(forKey: ObjectIdentifier(host)) else { return false }
        overlay.hide()
        return true
    }
}
