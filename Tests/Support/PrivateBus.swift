/// A D-Bus session bus of a test's own, for shell scripts that drive desktop services
/// (tumblerd, `gio open`, D-Bus activation) as a desktop session would.
public enum PrivateBus {
    /// Shell lines that start `dbus-daemon --session` on the socket `socket`, export
    /// `DBUS_SESSION_BUS_ADDRESS` and `BUS_PID`, and wait for the socket. The daemon's standard
    /// descriptors are redirected and every other one it would inherit is closed (Foundation's
    /// `Process` leaves the test's pipes open in its children), so nothing the test reads stays
    /// open after the script ends, even while the bus goes on. The bus is ended with
    /// `kill -KILL $BUS_PID` (the test runner starts programs with SIGTERM blocked, and they
    /// inherit that); the services the daemon started end with it or with their own work.
    public static func start(socket: String) -> String {
        """
        (
            for fd in $(ls /proc/$BASHPID/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null; done
            exec dbus-daemon --session --nofork --address=unix:path=\(socket) </dev/null >/dev/null 2>&1
        ) &
        BUS_PID=$!
        export DBUS_SESSION_BUS_ADDRESS=unix:path=\(socket)
        for _ in $(seq 100); do [ -S \(socket) ] && break; sleep 0.05; done
        """
    }
}
