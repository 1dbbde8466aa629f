/// The animation issue's example scene, exactly as the issue writes it; the Motion, renderer and
/// CLI tests all check it.
public let exampleScene = """
{"size": [320, 240], "duration": 2, "background": "#000000",
 "layers": [{"name": "box", "position": [160, 120], "bounds": [0, 0, 100, 100],
             "backgroundColor": "#ff0000", "opacity": 1,
             "sprites": [{"kind": "rotate", "axis": "z", "to": 6.283185307179586, "duration": 1, "repeat": "forever"},
                         {"kind": "fade", "from": 1, "to": 0, "duration": 2, "delay": 0.5, "timing": "easeInEaseOut"},
                         {"kind": "move", "to": [260, 120], "duration": 1, "autoreverse": true, "repeat": 1},
                         {"kind": "scale", "to": 2, "spring": {"mass": 1, "stiffness": 100, "damping": 10}}]}]}
"""
