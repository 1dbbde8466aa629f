internal import CGtk
import Foundation
import ViewfinderCore

/// A scrolling grid that makes only the cells on screen and reuses them as it scrolls, so it
/// stays smooth with thousands of items. Cells are bound to item positions; the owner keeps the
/// items themselves.
@MainActor
public final class GridView<Cell: GridCell>: Widget {
    private let list: OpaquePointer
    private var cells: [UnsafeMutableRawPointer: Cell] = [:]
    private var factory: Object?
    private var count = 0
    /// The item to give the focus once it is made (asked before the grid had made it).
    private var pendingFocus: Int?

    /// - Parameters:
    ///   - makeCell: a new, empty cell.
    ///   - bind: show item `position` in `cell`.
    ///   - unbind: `cell` scrolled away; stop loading into it.
    ///   - activated: the item at a position was clicked (or Enter pressed).
    public init(makeCell: @escaping @MainActor () -> Cell,
                bind: @escaping @MainActor (Cell, Int) -> Void,
                unbind: @escaping @MainActor (Cell) -> Void,
                activated: @escaping @MainActor (Int) -> Void) {
        guard let strings = gtk_string_list_new(nil), let made = gtk_signal_list_item_factory_new() else {
            preconditionFailure("GTK could not make a list model")
        }
        list = strings
        let factoryObject = Object(adopting: raw(made))
        // The selection model takes the list's reference; the grid takes the selection's and
        // the factory's. The wrapper keeps one extra reference to each so it can reach them.
        g_object_ref(raw(strings))
        g_object_ref(raw(made))
        guard let selection = gtk_no_selection_new(vf_list_model(raw(strings))) else {
            preconditionFailure("GTK could not make a selection model")
        }
        super.init(owning: raw(gtk_grid_view_new(vf_selection_model(raw(selection)), made)))
        factory = factoryObject
        gtk_grid_view_set_single_click_activate(vf_grid_view(pointer), 1)
        gtk_grid_view_set_max_columns(vf_grid_view(pointer), 12)

        typealias ItemHandler = @MainActor (UnsafeMutableRawPointer) -> Void
        let itemCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, item, data in
            guard let item else { return }
            MainActor.assumeIsolated { CallbackBox.from(data, as: ItemHandler.self)?(item) }
        }
        let setup: ItemHandler = { [unowned self] item in
            let cell = makeCell()
            self.cells[item] = cell
            gtk_list_item_set_child(vf_list_item(item), cell.view.widget)
        }
        let bindItem: ItemHandler = { [unowned self] item in
            guard let cell = self.cells[item] else { return }
            let position = Int(gtk_list_item_get_position(vf_list_item(item)))
            bind(cell, position)
            if position == self.pendingFocus { self.focusItem(at: position) }
        }
        let unbindItem: ItemHandler = { [unowned self] item in
            if let cell = self.cells[item] { unbind(cell) }
        }
        let teardown: ItemHandler = { [unowned self] item in
            self.cells[item] = nil
        }
        let cast = unsafeBitCast(itemCallback, to: GCallback.self)
        _ = factoryObject.connect("setup", cast, CallbackBox(setup))
        _ = factoryObject.connect("bind", cast, CallbackBox(bindItem))
        _ = factoryObject.connect("unbind", cast, CallbackBox(unbindItem))
        _ = factoryObject.connect("teardown", cast, CallbackBox(teardown))

        typealias PositionHandler = @MainActor (Int) -> Void
        let activate: @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafeMutableRawPointer?) -> Void = { _, position, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: PositionHandler.self)?(Int(position)) }
        }
        _ = connect("activate", unsafeBitCast(activate, to: GCallback.self), CallbackBox(activated as PositionHandler))
    }

    isolated deinit {
        g_object_unref(raw(list))
    }

    /// The number of items; changing it rebinds every visible cell.
    public var itemCount: Int {
        get { count }
        set {
            let names = (0..<max(0, newValue)).map { strdup(String($0)) }
            defer { names.forEach { free($0) } }
            var pointers: [UnsafePointer<CChar>?] = names.map { $0.map { UnsafePointer($0) } } + [nil]
            pointers.withUnsafeMutableBufferPointer { buffer in
                gtk_string_list_splice(list, 0, guint(count), buffer.baseAddress)
            }
            count = max(0, newValue)
        }
    }

    /// Moves the keyboard focus, visibly, to the item at `position` (not the grid around it,
    /// which would take the first key press to reach an item); an item not made yet takes it
    /// as soon as it is.
    public func focusItem(at position: Int) {
        pendingFocus = nil
        for (item, cell) in cells where Int(gtk_list_item_get_position(vf_list_item(item))) == position {
            if let holder = gtk_widget_get_parent(cell.view.widget) {
                _ = gtk_widget_grab_focus(holder)
                vf_show_focus_ring(holder)
                return
            }
        }
        pendingFocus = position
        grabFocus(visibly: true)
    }

    /// What a screen reader says for the item showing `cell` (GTK's item widget around it,
    /// which is what takes focus): its name, and whether it is selected.
    public func describeItem(holding cell: Cell, as name: String, selected: Bool) {
        guard let item = gtk_widget_get_parent(cell.view.widget) else { return }
        vf_set_accessible_label(item, name)
        vf_set_accessible_selected(item, selected ? 1 : 0)
    }

    /// The cells on screen now, with the positions they show (for tests and screenshots).
    public var visibleCells: [Cell] { Array(cells.values) }

    /// The position of the item with the keyboard focus, if one has it: the focused child is
    /// GTK's item widget, whose child is the cell's view.
    public var focusedPosition: Int? {
        guard let focused = gtk_widget_get_focus_child(widget), let shown = gtk_widget_get_first_child(focused) else { return nil }
        for (item, cell) in cells where cell.view.widget == shown {
            return Int(gtk_list_item_get_position(vf_list_item(item)))
        }
        return nil
    }
}

/// A cell of a `GridView`: any object with a widget to show.
@MainActor
public protocol GridCell: AnyObject {
    var view: Widget { get }
}

/// The system's file chooser.
@MainActor
public enum FileChooser {
    /// Asks for files to open; `completion` gets their paths (empty when cancelled).
    public static func openFiles(parent: Window, title: String, completion: @escaping @MainActor ([String]) -> Void) {
        guard let dialog = gtk_file_chooser_native_new(title, vf_window(parent.pointer), GTK_FILE_CHOOSER_ACTION_OPEN, tr("_Import"), tr("_Cancel")) else {
            return completion([])
        }
        let owner = Object(adopting: raw(dialog))
        gtk_file_chooser_set_select_multiple(vf_file_chooser(raw(dialog)), 1)
        typealias ResponseHandler = @MainActor (Int32) -> Void
        let handler: ResponseHandler = { response in
            var paths: [String] = []
            if response == GTK_RESPONSE_ACCEPT.rawValue, let files = gtk_file_chooser_get_files(vf_file_chooser(owner.pointer)) {
                for index in 0..<g_list_model_get_n_items(files) {
                    guard let file = g_list_model_get_item(files, index) else { continue }
                    if let path = g_file_get_path(OpaquePointer(file)) {
                        paths.append(String(cString: path))
                        g_free(path)
                    }
                    g_object_unref(file)
                }
                g_object_unref(raw(files))
            }
            completion(paths)
            holder.removeValue(forKey: ObjectIdentifier(owner))
        }
        let callback: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, response, data in
            MainActor.assumeIsolated { CallbackBox.from(data, as: ResponseHandler.self)?(response) }
        }
        _ = owner.connect("response", unsafeBitCast(callback, to: GCallback.self), CallbackBox(handler))
        holder[ObjectIdentifier(owner)] = owner
        gtk_native_dialog_show(vf_native_dialog(owner.pointer))
    }

    /// Dialogs kept alive while they are open.
    private static var holder: [ObjectIdentifier: Object] = [:]
}
