import Foundation

/// Headless Chromium as an independent player: it opens an MP4 in a `<video>` element, seeks to
/// each time, draws the picture to a canvas and reads the index the frame draws (the same bar
/// `FrameIndexPattern` reads, in the page's JavaScript).
public enum BrowserOracle {
    /// Whether Debian's `chromium` is installed (scripts/install-deps puts it in the test set).
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") }

    /// The drawn index of the frame each time (seconds from the start) selects, nil where the bar
    /// cannot be read. `frameDuration` is the video's (constant) frame duration: the page reads a
    /// picture only when the frame on screen is, by its own timestamp, the one the time selects
    /// (the last to start at or before it), so each time should lie inside a frame, away from its
    /// edges. Throws when the page never reports (the browser cannot play the file) or a time's
    /// frame is not shown within the page's real-time limit; never answers with another frame.
    public static func indices(of video: URL, at times: [Double], frameDuration: Double) throws -> [Int?] {
        precondition(frameDuration > 0, "a frame lasts some time")
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
                "--virtual-time-budget=100000000", "--dump-dom",
                "file://\(page.path)?src=video.mp4&t=\(list)&frameDuration=\(frameDuration)"], timeout: 90)
            last = result.stdout
            if let start = last.range(of: "indices ["), let end = last[start.upperBound...].firstIndex(of: "]") {
                return last[start.upperBound..<end].split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            }
            if last.contains("<pre id=\"out\">error") { break }
        }
        throw SubprocessError.failed("chromium", last.range(of: "<pre").map { String(last[$0.lowerBound...].prefix(300)) } ?? "no page")
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
const times = params.get('t').split(',').map(Number), frameDuration = Number(params.get('frameDuration'));
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
// What is on screen. 'seeked' can come before the new picture is presented (a loaded machine
// shows this), and a picture read then is the previous probe's. A VideoFrame made from the
// element holds the picture it shows at that moment together with that frame's timestamp (its
// presentation time in microseconds; requestVideoFrameCallback's mediaTime is the same time in
// seconds), so a probe is read from a VideoFrame only when its timestamp says it is the frame
// the time selects: the last to start at or before it. (requestVideoFrameCallback alone does
// not do: its callbacks come at rendering steps, one for all frames presented since the last,
// none after a seek to the time already shown, and under load a page waiting on them alone
// now and then never heard of the first seek's frame.)
function shownAt(t) {
  if (v.seeking || v.readyState < v.HAVE_CURRENT_DATA) return null;
  const shown = new VideoFrame(v), start = shown.timestamp / 1e6;
  if (start <= t + 1e-6 && t + 1e-6 < start + frameDuration) return shown;
  shown.close();
  return null;
}
// Waits until got() answers (asked at 'loadeddata', 'seeked' and every frame the page renders),
// or answers null when it has not within `limit` of real time. Real time: under
// --virtual-time-budget, timers, Date and performance.now() follow virtual time, which the tick
// loop below moves a millisecond per task, up to hundreds of times faster than real time here,
// so a setTimeout says nothing about how long the decoder has had (a "1.5 s" wait could end
// after a few milliseconds). requestAnimationFrame's timestamps are the compositor's frame
// times, which are real.
const limit = 10000;
let waiting = null;
function until(got) { return new Promise(done => { waiting = { got, done, since: null }; check(); }); }
function check() {
  let value = null;
  try { value = waiting ? waiting.got() : null; } catch (error) { fail(String(error)); }
  if (value !== null) { const done = waiting.done; waiting = null; done(value); }
}
function frame(now) {
  if (out.textContent !== 'pending') return;
  requestAnimationFrame(frame);
  check();
  if (waiting && waiting.since === null) waiting.since = now;
  else if (waiting && now - waiting.since > limit) { const done = waiting.done; waiting = null; done(null); }
}
function showing() {
  if (v.readyState < v.HAVE_CURRENT_DATA) return 'nothing';
  const shown = new VideoFrame(v), text = 'the frame at ' + shown.timestamp / 1e6 + ' s';
  shown.close();
  return text + (v.seeking ? ', still seeking' : '');
}
const fail = text => { if (out.textContent === 'pending') out.textContent = 'error: ' + text; };
v.addEventListener('error', () => fail('video ' + (v.error ? v.error.code + ' ' + v.error.message : '')));
v.addEventListener('loadeddata', check);
v.addEventListener('seeked', check);
async function probe() {
  if (await until(() => v.readyState >= v.HAVE_CURRENT_DATA || null) === null) return fail('no picture within ' + limit / 1000 + ' s');
  c.width = v.videoWidth; c.height = v.videoHeight;
  const ctx = c.getContext('2d', { willReadFrequently: true }), found = [];
  for (const t of times) {
    v.currentTime = t;
    const shown = await until(() => shownAt(t));
    if (shown === null) return fail('at ' + t + ' s the frame it selects was not shown within ' + limit / 1000 + ' s (showing ' + showing() + ')');
    ctx.drawImage(shown, 0, 0);
    shown.close();
    found.push(readIndex(ctx, c.width, c.height));
  }
  out.textContent = 'indices ' + JSON.stringify(found);
}
// Keep a timer pending while the seeks run: without one, headless Chromium's virtual time
// jumps to the end of its budget and the page is dumped before the answer is written. Once the
// answer is written no task is left and the budget ends at once.
(function tick() { if (out.textContent === 'pending') setTimeout(tick, 1); })();
requestAnimationFrame(frame);
probe();
v.src = params.get('src');
</script></body></html>

"""
}
