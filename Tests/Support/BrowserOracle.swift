import Foundation

/// Headless Chromium as an independent player: it opens an MP4 in a `<video>` element, seeks to
/// each time, draws the picture to a canvas and reads the index the frame draws (the same bar
/// `FrameIndexPattern` reads, in the page's JavaScript).
public enum BrowserOracle {
    /// Whether Debian's `chromium` is installed (scripts/install-deps puts it in the test set).
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") }

    /// The drawn index shown at each time (seconds from the start), nil where the bar cannot be
    /// read; throws when the page never reports (the browser cannot play the file).
    public static func indices(of video: URL, at times: [Double]) throws -> [Int?] {
        let folder = TestPaths.scratchFolder("browser")
        let page = folder.appendingPathComponent("page.html")
        try Data(html.utf8).write(to: page)
        let copy = folder.appendingPathComponent("video.mp4")
        try FileManager.default.copyItem(at: video, to: copy)
        let list = times.map { String(format: "%.6f", $0) }.joined(separator: ",")
        var last = ""
        for attempt in 0..<2 {
            let result = try Subprocess.run("chromium", [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--mute-audio", "--allow-file-access-from-files",
                "--user-data-dir=\(folder.appendingPathComponent("profile-\(attempt)").path)",
                "--virtual-time-budget=100000000", "--dump-dom", "file://\(page.path)?src=video.mp4&t=\(list)"], timeout: 90)
            last = result.stdout
            if let start = last.range(of: "indices ["), let end = last[start.upperBound...].firstIndex(of: "]") {
                return last[start.upperBound..<end].split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            }
            if last.contains("<pre id=\"out\">error") { break }
        }
        throw SubprocessError.failed("chromium", last.range(of: "<pre").map { String(last[$0.lowerBound...].prefix(200)) } ?? "no page")
    }

    /// What `HTMLMediaElement.canPlayType` answers for each MIME type ("", "maybe", "probably").
    public static func canPlay(_ types: [String]) throws -> [String] {
        let folder = TestPaths.scratchFolder("browser-types")
        let page = folder.appendingPathComponent("types.html")
        let list = types.map { "'\($0.replacingOccurrences(of: "'", with: ""))'" }.joined(separator: ",")
        try Data("""
        <html><body><pre id="o"></pre><script>
        const v = document.createElement('video');
        document.getElementById('o').textContent = 'types ' + [\(list)].map(t => '[' + v.canPlayType(t) + ']').join('');
        </script></body></html>
        """.utf8).write(to: page)
        let result = try Subprocess.run("chromium", ["--headless=new", "--no-sandbox", "--disable-gpu",
                                                     "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
                                                     "--dump-dom", "file://\(page.path)"], timeout: 90)
        guard let start = result.stdout.range(of: "types ") else { throw SubprocessError.failed("chromium", result.stderr) }
        let line = result.stdout[start.upperBound...].prefix { $0 != "<" }
        return line.split(separator: "]", omittingEmptySubsequences: false).dropLast().map { String($0.dropFirst()) }
    }

    private static let html = """
<!doctype html>
<html><body><video id="v" muted preload="auto"></video><canvas id="c"></canvas><pre id="out">pending</pre>
<script>
const params = new URLSearchParams(location.search);
const times = params.get('t').split(',').map(Number);
const v = document.getElementById('v'), c = document.getElementById('c'), out = document.getElementById('out');
function readIndex(ctx, w, h) {
  const band = Math.max(4, Math.floor(h / 5)), data = ctx.getImageData(0, 0, w, band).data, levels = [];
  for (let cell = 0; cell < 16; cell++) {
    const x0 = Math.floor(cell * w / 16), x1 = Math.floor((cell + 1) * w / 16), cw = x1 - x0;
    const sx0 = x0 + Math.floor(cw / 4), sx1 = Math.max(sx0 + 1, x1 - Math.floor(cw / 4));
    const sy0 = Math.floor(band / 4), sy1 = Math.max(sy0 + 1, band - Math.floor(band / 4));
    let sum = 0, count = 0;
    for (let y = sy0; y < sy1; y++) for (let x = sx0; x < sx1; x++) {
      const i = (y * w + x) * 4;
      sum += Math.floor((299 * data[i] + 587 * data[i + 1] + 114 * data[i + 2]) / 1000); count++;
    }
    levels.push(Math.floor(sum / Math.max(count, 1)));
  }
  if (levels[0] - levels[1] < 96) return null;
  const threshold = Math.floor((levels[0] + levels[1]) / 2);
  let index = 0;
  for (let cell = 2; cell < 16; cell++) index = (index << 1) | (levels[cell] >= threshold ? 1 : 0);
  return index;
}
v.addEventListener('error', () => { out.textContent = 'error ' + (v.error ? v.error.code + ' ' + v.error.message : ''); });
v.addEventListener('loadeddata', async () => {
  c.width = v.videoWidth; c.height = v.videoHeight;
  const ctx = c.getContext('2d', { willReadFrequently: true }), found = [];
  const pause = ms => new Promise(done => setTimeout(done, ms));
  for (const t of times) {
    // 'seeked' can come before the new picture is presented (a loaded machine shows this): wait
    // for the presented frame as well (requestVideoFrameCallback, or a moment where it is
    // missing or never fires for an unchanged frame), then read until two reads agree. The
    // moment is long (1.5 s): on a loaded machine a new picture took more than 250 ms, and two
    // reads of the old one agreed (a make test run read the previous probe's frame).
    const presented = new Promise(done => {
      if ('requestVideoFrameCallback' in v) v.requestVideoFrameCallback(() => done());
      setTimeout(done, 1500);
    });
    await new Promise(done => { v.addEventListener('seeked', done, { once: true }); v.currentTime = t; });
    await presented;
    let index = null, previous;
    for (let read = 0; read < 20; read++) {
      ctx.drawImage(v, 0, 0);
      index = readIndex(ctx, c.width, c.height);
      if (read > 0 && index === previous) break;
      previous = index;
      await pause(50);
    }
    found.push(index);
  }
  out.textContent = 'indices ' + JSON.stringify(found);
});
// Keep a timer pending while the seeks run: headless Chromium's virtual time then moves no
// faster than the page's tasks, so the media pipeline has real time to decode; once the answer
// is written no task is left and the budget ends at once.
let ticks = 0;
(function tick() {
  if (out.textContent !== 'pending') return;
  if (++ticks > 2000000) { out.textContent = 'error: no answer'; return; }
  setTimeout(tick, 1);
})();
v.src = params.get("src");
</script></body></html>

"""
}
