"""Widths (pt) of the printable ASCII characters as pdflatex sets them in a 10 pt article with
T1 fonts and UTF-8 input, at \\small and \\footnotesize: each character's box width, a
typewriter character, the quad (\\fontdimen6), and a math minus
as the tables write it ($-$, a sign). Writes widths.json beside this file.
Run: python3 test/reference/latex-widths/measure.py   (needs pdflatex)."""
import json, os, re, subprocess, tempfile

SIZES = ['small', 'footnotesize']
chars = [chr(c) for c in range(32, 127)]


def esc(c):
    return {'\\': '\\textbackslash', '{': '\\{', '}': '\\}', '$': '\\$', '&': '\\&', '#': '\\#', '%': '\\%',
            '_': '\\_', '~': '\\textasciitilde', '^': '\\textasciicircum', ' ': '\\ '}.get(c, c)


lines = ['\\documentclass{article}', '\\usepackage[T1]{fontenc}', '\\usepackage[utf8]{inputenc}',
         '\\newlength\\w', '\\begin{document}']
for s in SIZES:
    lines.append('{\\%s' % s)
    for i, c in enumerate(chars):
        lines.append('\\settowidth\\w{%s}\\typeout{W %s %d \\the\\w}' % (esc(c), s, i))
    lines.append('\\settowidth\\w{\\texttt{0}}\\typeout{T %s \\the\\w}' % s)
    lines.append('\\typeout{Q %s \\the\\fontdimen6\\font}' % s)
    lines.append('\\settowidth\\w{$-$}\\typeout{N %s \\the\\w}' % s)
    lines.append('}')
lines.append('x\\end{document}')
with tempfile.TemporaryDirectory() as d:
    open(os.path.join(d, 'm.tex'), 'w').write('\n'.join(lines))
    out = subprocess.run(['pdflatex', '-interaction=nonstopmode', 'm.tex'], cwd=d, capture_output=True, text=True).stdout
pt = lambda x: float(x.rstrip('pt'))
res = {s: {'ascii': [0.0] * len(chars)} for s in SIZES}
for m in re.finditer(r'^W (\w+) (\d+) ([\d.]+pt)', out, re.M):
    res[m[1]]['ascii'][int(m[2])] = pt(m[3])
for m in re.finditer(r'^T (\w+) ([\d.]+pt)', out, re.M):
    res[m[1]]['tt'] = pt(m[2])
for m in re.finditer(r'^Q (\w+) ([\d.]+pt)', out, re.M):
    res[m[1]]['em'] = pt(m[2])
for m in re.finditer(r'^N (\w+) ([\d.]+pt)', out, re.M):
    res[m[1]]['minus'] = pt(m[2])
for s in SIZES:
    assert len(res[s]) == 4 and all(w > 0 for w in res[s]['ascii'][1:]), (s, res[s])
json.dump(res, open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'widths.json'), 'w'), indent=1)
print(json.dumps({s: {k: v for k, v in res[s].items() if k != 'ascii'} for s in SIZES}))
