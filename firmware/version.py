# The firmware's version. main.py prints it on the serial console at power-on; tools/deploy.py
# checks it on the board after copying, and writes it into package.json and manifest.py. What
# changed from one version to the next: CHANGELOG.md.
VERSION = "0.2.0"
