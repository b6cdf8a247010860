#!/usr/bin/env bash
# Vendor the viewer's JavaScript into api/static/vendor/, so that /, /docs and /sparql load nothing from a
# CDN (scholars run the server offline).  The versions are the exact ones in package.json and
# package-lock.json beside this script; to upgrade, edit package.json, run
# `npm install --package-lock-only --ignore-scripts` here, then this script, and commit both.
#
# It runs `npm ci` in a temporary folder (no node_modules is left in the tree; install scripts are not
# run) and copies only the built files: the minified bundles, their CSS and their licence files.
#
#   cytoscape        dist/cytoscape.min.js                          -> vendor/cytoscape/
#   swagger-ui-dist  swagger-ui-bundle.js, swagger-ui.css, favicon  -> vendor/swagger-ui/
#   @zazuko/yasgui   build/yasgui.min.js, build/yasgui.min.css      -> vendor/yasgui/
#
# The yasgui bundle includes its dependencies (CodeMirror, jQuery, DataTables, …): their licence files
# go to vendor/yasgui/licenses/.  @zazuko/yasgui itself ships no LICENSE file; its package.json says MIT,
# and vendor/yasgui/LICENSE says so with the MIT text.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../static/vendor"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cp "$here/package.json" "$here/package-lock.json" "$work/"
(cd "$work" && SCARF_ANALYTICS=false npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
nm="$work/node_modules"

rm -rf "$out/cytoscape" "$out/swagger-ui" "$out/yasgui"  # not vendor/hanazono: api/web/rare_font.py makes it
mkdir -p "$out/cytoscape" "$out/swagger-ui" "$out/yasgui/licenses"

cp "$nm/cytoscape/dist/cytoscape.min.js" "$nm/cytoscape/LICENSE" "$out/cytoscape/"

s="$nm/swagger-ui-dist"
cp "$s/swagger-ui-bundle.js" "$s/swagger-ui-bundle.js.LICENSE.txt" "$s/swagger-ui.css" "$s/favicon-32x32.png" \
  "$s/LICENSE" "$s/NOTICE" "$out/swagger-ui/"

y="$nm/@zazuko/yasgui"
cp "$y/build/yasgui.min.js" "$y/build/yasgui.min.css" "$out/yasgui/"
node - "$y/package.json" > "$out/yasgui/LICENSE" <<'EOF'
const pkg = require(process.argv[2]);
const who = [pkg.author, ...(pkg.contributors || []).map((c) => c.name || c)].join(", ");
console.log(`${pkg.name} ${pkg.version}: the npm package ships no LICENSE file; its package.json declares
"license": "${pkg.license}", author and contributors: ${who}; source: ${pkg.homepage}.
The bundle yasgui.min.js includes the packages whose licence files are in licenses/.

MIT License

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction, including
without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the
following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial
portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO
EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER
IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE
USE OR OTHER DEALINGS IN THE SOFTWARE.`);
EOF
# the licence files of every package @zazuko/yasgui depends on, directly or not (what its bundle holds)
node - "$nm" <<'EOF' | while IFS=$'\t' read -r name file; do cp "$file" "$out/yasgui/licenses/${name//\//__}.${file##*/}"; done
const fs = require("fs"), path = require("path");
const nm = process.argv[2], seen = new Set(), todo = ["@zazuko/yasgui"];
while (todo.length) {
  const name = todo.pop();
  if (seen.has(name)) continue;
  seen.add(name);
  const pkg = JSON.parse(fs.readFileSync(path.join(nm, name, "package.json"), "utf8"));
  todo.push(...Object.keys(pkg.dependencies || {}));
}
for (const name of [...seen].sort()) {
  for (const file of fs.readdirSync(path.join(nm, name)).sort()) {
    if (/^(licen[cs]e|copying|notice)/i.test(file)) console.log(`${name}\t${path.join(nm, name, file)}`);
  }
}
EOF

( cd "$out" && printf '%s\n' "These files are built by api/web/vendor.sh from the npm packages pinned in api/web/package-lock.json:" \
    "$(node -e 'const l=require(process.argv[1]).packages; for (const n of ["cytoscape","swagger-ui-dist","@zazuko/yasgui"]) console.log(`  ${n} ${l["node_modules/"+n].version}`)' "$here/package-lock.json")" \
    "Do not edit them; run the script again." > README )
echo "vendored into $out:"
(cd "$out" && find . -type f | sort | sed 's/^/  /')
