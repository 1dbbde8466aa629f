"""PSNR and mean absolute error of a GIF's decoded frames against the true RGB frames.

usage: compare.py TRUTH.rgb OUT.gif WIDTH HEIGHT FRAMES
"""
import subprocess
import sys

import numpy as np

truth, gif, w, h, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
t = np.fromfile(truth, dtype=np.uint8).reshape(n, h, w, 3).astype(np.float64)
raw = subprocess.run(["ffmpeg", "-v", "error", "-i", gif, "-fps_mode", "passthrough", "-f", "rawvideo",
                      "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
g = np.frombuffer(raw, dtype=np.uint8)
frames = g.size // (w * h * 3)
g = g[: frames * w * h * 3].reshape(frames, h, w, 3).astype(np.float64)
m = min(frames, n)
d = g[:m] - t[:m]
mse = (d ** 2).mean()
psnr = 10 * np.log10(255 ** 2 / mse) if mse > 0 else float("inf")
print(f"frames={frames} psnr={psnr:.2f} mae={np.abs(d).mean():.2f}")
