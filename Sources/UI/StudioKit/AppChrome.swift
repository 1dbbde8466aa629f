internal import CAdwaita
internal import CGtk
import Foundation
import ViewfinderCore

/// The header bar's primary menu (GNOME's "Main Menu" button): entries that activate the
/// application's actions (`app.<name>`, added with `Application.addAction`); F10 opens it.
@MainActor
public final class MenuButton: Widget {
    /// A menu button showing `entries` (a title and the application action each activates).
    public init(primaryMenu entries: [(title: String, action: String)]) {
        super.init(owning: raw(gtk_menu_button_new()))
        guard let menu = g_menu_new() else { return }
        for entry in entries { g_menu_append(menu, entry.title, "app.\(entry.action)") }
        gtk_menu_button_set_menu_model(OpaquePointer(pointer), vf_menu_model(UnsafeMutableRawPointer(menu)))
        g_object_unref(UnsafeMutableRawPointer(menu))
        gtk_menu_button_set_icon_name(OpaquePointer(pointer), "open-menu-symbolic")
        gtk_menu_button_set_primary(OpaquePointer(pointer), 1)
        gtk_widget_set_tooltip_text(widget, tr("Main Menu"))
        setAccessibleName(tr("Main Menu"))
    }
}

/// A centred page for an empty place (libadwaita's status page): an icon, a title and what to do.
@MainActor
public final class StatusPage: Widget {
    public init(icon: String, title: String, description: String) {
        super.init(owning: raw(adw_status_page_new()))
        adw_status_page_set_icon_name(vf_adw_status_page(pointer), icon)
        self.title = title
        details = description
    }

    /// The title.
    public var title: String {
        get { adw_status_page_get_title(vf_adw_status_page(pointer)).map { String(cString: $0) } ?? "" }
        set { adw_status_page_set_title(vf_adw_status_page(pointer), newValue) }
    }

    /// The description (Pango markup is not used: the text is escaped).
    public var details: String {
        get { adw_status_page_get_description(vf_adw_status_page(pointer)).map { String(cString: $0) } ?? "" }
        set {
            let escaped = g_markup_escape_text(newValue, -1)
            defer { g_free(escaped) }
            adw_status_page_set_description(vf_adw_status_page(pointer), escaped)
        }
    }
}

/// What the About window says of the application.
public struct AboutInfo: Sendable {
    public var name: String
    public var iconName: String
    public var version: String
    public var developer: String
    public var comments: String
    /// The licence's text (shown under Legal); nil leaves the section out.
    public var licence: String?

    public init(name: String, iconName: String, version: String, developer: String, comments: String, licence: String? = nil) {
        self.name = name
        self.iconName = iconName
        self.version = version
        self.developer = developer
        self.comments = comments
        self.licence = licence
    }
}

/// One group of a shortcuts window: a title and its shortcuts (a GTK accelerator such as
/// "<Control>i", or several separated by spaces, and what it does).
public struct ShortcutGroup: Sendable {
    public var title: String
    public var shortcuts: [(accelerator: String, title: String)]

    public init(title: String, shortcuts: [(accelerator: String, title: String)]) {
        self.title = title
        self.shortcuts = shortcuts
    }
}

extension Window {
    /// Shows libadwaita's About window for the application, over this window.
    public func presentAbout(_ info: AboutInfo) {
        guard let about = adw_about_window_new() else { return }
        let window = vf_adw_about_window(UnsafeMutableRawPointer(about))
        adw_about_window_set_application_name(window, info.name)
        adw_about_window_set_application_icon(window, info.iconName)
        adw_about_window_set_version(window, info.version)
        adw_about_window_set_developer_name(window, info.developer)
        adw_about_window_set_comments(window, info.comments)
        if let licence = info.licence {
            adw_about_window_set_license_type(window, GTK_LICENSE_CUSTOM)
            adw_about_window_set_license(window, licence)
        }
        gtk_window_set_transient_for(vf_window(UnsafeMutableRawPointer(about)), vf_window(pointer))
        gtk_window_set_modal(vf_window(UnsafeMutableRawPointer(about)), 1)
        gtk_window_present(vf_window(UnsafeMutableRawPointer(about)))
    }

    /// Shows GTK's keyboard shortcuts window with `groups`, over this window; returns how many
    /// shortcuts the window shows (0 when it could not be made).
    @discardableResult
    public func presentShortcuts(_ groups: [ShortcutGroup]) -> Int {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        func property(_ name: String, _ value: String) -> String {
            "<property name=\"\(name)\">\(escaped(value))</property>"
        }
        var xml = "<interface><object class=\"GtkShortcutsWindow\" id=\"shortcuts\">" + property("modal", "1")
            + "<child><object class=\"GtkShortcutsSection\">" + property("section-name", "shortcuts") + property("max-height", "14")
        for group in groups {
            xml += "<child><object class=\"GtkShortcutsGroup\">" + property("title", group.title)
            for shortcut in group.shortcuts {
                xml += "<child><object class=\"GtkShortcutsShortcut\">" + property("title", shortcut.title)
                    + property("accelerator", shortcut.accelerator) + "</object></child>"
            }
            xml += "</object></child>"
        }
        xml += "</object></child></object></interface>"
        guard let builder = gtk_builder_new_from_string(xml, -1) else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(builder)) }
        guard let object = gtk_builder_get_object(builder, "shortcuts") else { return 0 }
        let shortcuts = vf_window(UnsafeMutableRawPointer(object))
        gtk_window_set_transient_for(shortcuts, vf_window(pointer))
        gtk_window_present(shortcuts)
        // What GTK made of the description, counted from its objects.
        let objects = gtk_builder_get_objects(builder)
        defer { g_slist_free(objects) }
        var count = 0
        var node = objects
        while let item = node {
            if let data = item.pointee.data, vf_is_shortcuts_shortcut(data) != 0 { count += 1 }
            node = item.pointee.next
        }
        return count
    }
}
