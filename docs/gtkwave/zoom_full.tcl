# GTKWave script: show the whole run (with a save file such as model.gtkw, which places
# the signals). docs/cli.md, "The waveform".
gtkwave::/Time/Zoom/Zoom_Full
