"""Writes cuarray/scipy/special/templates/amos_*.cuh: AMOS (Amos, ACM TOMS 644) ported from xsf's C++
translation (scipy/xsf, include/xsf/amos/amos.h, BSD-3-Clause) to CUDA, mechanically, so the port can
be redone on a newer xsf and reviewed as a list of rewrites. Used with xsf at 101ee41a1 (2026; after
xsf#132, whose fix of the scaled functions SciPy 1.17/1.18 lack).

    python scripts/special/port_amos.py path/to/xsf/include/xsf/amos/amos.h [--out templates_dir]

The rewrites: std::complex<double> -> zcx (amos_core.cuh's prelude, kept from the file), std:: functions ->
az_* overloads, numeric_limits -> literals, constant tables -> constant memory, every routine
CSF_NOINLINE, besy's allocation -> a fixed pair; then, for the kernels' stack, unhj's and unik's work
arrays replaced by recomputation / two running sums (each `sub` below asserts the text it replaces).
Checked: the host build (tests/scipy/special_host.cpp) of the files with and without those stack
rewrites gave bit-identical values of the twelve functions at 55000 points each over
tests/scipy/special_host_lib.amos_regions plus orders to 400 with |z| about the order; and the files
agree with xsf itself (built on the host) to 6e-14 at 20000 points each.
"""

import argparse
import re

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("amos_h")
parser.add_argument("--out", default="cuarray/scipy/special/templates")
args = parser.parse_args()

# amos_core.cuh's hand-written prelude (its comment, the complex type and the az_* functions) is
# kept from the file itself, up to its end marker: one copy, edited there.
PRELUDE_END = "// (end of the hand-written prelude: scripts/special/port_amos.py rewrites what follows)\n"
_core_now = open(args.out.rstrip("/") + "/amos_core.cuh").read()
PRELUDE = _core_now[:_core_now.index(PRELUDE_END) + len(PRELUDE_END)]

src = open(args.amos_h).read()
# body: from "namespace amos {" to the end of namespaces
start = src.index('namespace xsf {')
body = src[start:]
body = body.replace('namespace xsf {\nnamespace amos {', '', 1)
body = body.rstrip()
assert body.endswith('} // namespace xsf'), body[-200:]
body = body[:body.rindex('} // namespace amos')]
# function definitions and forward declarations
body = re.sub(r'^    inline ', '    CSF_NOINLINE ', body, flags=re.M)
body = re.sub(r'^    (int|void|double)\n    (\w+\()', r'    CSF_NOINLINE \1 \2', body, flags=re.M)
body = re.sub(r'^    (int|void|double) (\w+\()', r'    CSF_NOINLINE \1 \2', body, flags=re.M)
body = body.replace('std::complex<double>', 'zcx')
for f in ['abs', 'exp', 'log', 'sqrt', 'cos', 'sin', 'cosh', 'sinh', 'atan', 'atan2', 'fabs', 'fmax', 'fmin', 'pow',
          'conj', 'real', 'imag']:
    body = body.replace('std::%s(' % f, 'az_%s(' % f)
lims = {'std::numeric_limits<double>::digits': '53',
        'std::numeric_limits<double>::epsilon()': '2.220446049250313e-16',
        'std::numeric_limits<double>::max()': '1.7976931348623157e+308',
        'std::numeric_limits<double>::max_exponent': '1024',
        'std::numeric_limits<double>::min_exponent': '(-1021)',
        'std::numeric_limits<double>::min()': '2.2250738585072014e-308',
        'std::numeric_limits<int>::max()': '2147483647'}
for k, v in lims.items():
    body = body.replace(k, v)
body = re.sub(r'^    constexpr double (\w+\[)', r'    CSF_AMOS_TABLE \1', body, flags=re.M)
body = body.replace('M_1_PI', '0.318309886183790671537767526745028724').replace('NAN', 'lim<double>::nan()')
body = body.replace('M_PI_2', 'k_pi_2').replace('M_PI', 'k_pi')
body = body.replace('    CSF_NOINLINE int wrsk(', '    CSF_NOINLINE zcx airy(zcx, int, int, int *, int *);\n    CSF_NOINLINE int wrsk(', 1)
old = '''        auto cwrk = std::unique_ptr<zcx[]>{new (std::nothrow) zcx[n]};
        if (cwrk == nullptr) {
            *ierr = 6; // Memory allocation failed.
            return 0;
        }
'''
assert old in body
body = body.replace(old, '''        // (xsf allocates n values; the ufuncs ask for one: a fixed pair, no allocation)
        zcx cwrk[2];
        if (n > 2) {
            *ierr = 6;
            return 0;
        }
''')
body = body.replace('cwrk.get()', 'cwrk')
body = body.replace('in terms of std::numeric_limits', 'in terms of numeric_limits')
assert 'std::' not in body.replace('std::unique_ptr', '').replace('std::nothrow', ''), [l for l in body.splitlines() if 'std::' in l]
# split by function
lines = body.split('\n')
def is_def(i):
    if not re.match(r'    CSF_NOINLINE \w+ \w+\(', lines[i]):
        return False
    while not lines[i].rstrip().endswith(('{', ';')):
        i += 1
    return lines[i].rstrip().endswith('{')
starts = [i for i in range(len(lines)) if is_def(i)]
first = starts[0]
head = '\n'.join(lines[:first])
funcs = {}
for a, b in zip(starts, starts[1:] + [len(lines)]):
    name = re.match(r'    CSF_NOINLINE \w+ (\w+)\(', lines[a]).group(1)
    funcs[name] = '\n'.join(lines[a:b]).rstrip() + '\n'
old = '''    CSF_NOINLINE void unik(
        zcx, double, int, int, double, int *, zcx *, zcx *,
        zcx *, zcx *, zcx *
    );'''
assert old in head
head = head.replace(old, '''    // unik's saved state between its calls for one order (xsf's 16-value work array, reduced: amos_uniform.cuh)
    struct unik_work {
        zcx c16, sum_i, sum_k;
    };
    CSF_FN void unik(
        zcx, double, int, int, double, int *, zcx *, zcx *,
        zcx *, zcx *, unik_work *
    );''')

# --- stack: the per-thread frame (module docstring of amos_core.cuh) ---------------------------
def sub(name, old, new, count=1):
    t = funcs[name]
    assert t.count(old) == count, (name, old, t.count(old))
    funcs[name] = t.replace(old, new)
# unhj: the powers w2^(k-1) and |w2|^(k-1) recomputed by the same products in each pass instead of
# kept in p[30], ap[30] (720 bytes of local memory; the values are bit-identical)
sub('unhj', """        zcx p[30] = {0.};
        double ap[30] = {0.};
""", """        zcx pk;
        double apk;
""")
sub('unhj', """            k = 1;
            p[0] = 1.;
            suma = zunhj_gama[0];
            ap[0] = 1.;
            if (aw2 >= tol) {
                for (k = 2; k < 31; k++) {
                    p[k - 1] = p[k - 2] * w2;
                    suma += p[k - 1] * zunhj_gama[k - 1];
                    ap[k - 1] = ap[k - 2] * aw2;
                    if (ap[k - 1] < tol) {""", """            k = 1;
            pk = 1.;
            suma = zunhj_gama[0];
            apk = 1.;
            if (aw2 >= tol) {
                for (k = 2; k < 31; k++) {
                    pk = pk * w2;
                    suma += pk * zunhj_gama[k - 1];
                    apk = apk * aw2;
                    if (apk < tol) {""")
sub('unhj', """            for (k = 1; k < (kmax + 1); k++) {
                sumb += p[k - 1] * zunhj_beta[k - 1];
            }""", """            pk = 1.;
            for (k = 1; k < (kmax + 1); k++) {
                if (k > 1) {
                    pk = pk * w2;
                }
                sumb += pk * zunhj_beta[k - 1];
            }""")
for tab in ('alfa', 'beta'):
    sub('unhj', """                    for (k = 1; k < (kmax + 1); k++) {
                        m = l%s + k;
                        sum%s += p[k - 1] * zunhj_%s[m - 1];
                        if (ap[k - 1] < atol) {""" % ('1' if tab == 'alfa' else '2', 'a' if tab == 'alfa' else 'b', tab),
        """                    pk = 1.;
                    apk = 1.;
                    for (k = 1; k < (kmax + 1); k++) {
                        if (k > 1) {
                            pk = pk * w2;
                            apk = apk * aw2;
                        }
                        m = l%s + k;
                        sum%s += pk * zunhj_%s[m - 1];
                        if (apk < atol) {""" % ('1' if tab == 'alfa' else '2', 'a' if tab == 'alfa' else 'b', tab))
assert 'p[' not in funcs['unhj'].replace('up[', ''), [l for l in funcs['unhj'].split('\n') if 'p[' in l and 'up[' not in l]

# unhj: the coefficients cr[k] = rzth^(k+1) br[k+1] and dr[k] = rzth^(k+2) ar[k+2] recomputed by
# the same running products where the sums use them instead of kept in cr[14], dr[14] (448 bytes)
sub('unhj', "        zcx cfnu, przth, ptfn,", "        zcx cfnu, ptfn,")
sub('unhj', "            przth = rzth;\n", "")
sub('unhj', """        zcx cr[14] = {0.};
        zcx dr[14] = {0.};
""", """        zcx pr;
""")
sub('unhj', """                    up[kp1 - 1] = ptfn * za;
                    cr[ks - 1] = przth * zunhj_br[ks];
                    przth *= rzth;
                    dr[ks - 1] = przth * zunhj_ar[ks + 1];
""", """                    up[kp1 - 1] = ptfn * za;
""")
sub('unhj', """                    ju = lrp1;
                    for (int jr = 1; jr < lrp1; jr++) {
                        ju -= 1;
                        suma += cr[jr - 1] * up[ju - 1];
                    }""", """                    ju = lrp1;
                    pr = rzth;
                    for (int jr = 1; jr < lrp1; jr++) {
                        ju -= 1;
                        suma += (pr * zunhj_br[jr]) * up[ju - 1];
                        pr *= rzth;
                    }""")
sub('unhj', """                    ju = lrp1;
                    for (int jr = 1; jr < lrp1; jr++) {
                        ju -= 1;
                        sumb += dr[jr - 1] * up[ju - 1];
                    }""", """                    ju = lrp1;
                    pr = rzth;
                    for (int jr = 1; jr < lrp1; jr++) {
                        ju -= 1;
                        pr *= rzth;
                        sumb += (pr * zunhj_ar[jr + 1]) * up[ju - 1];
                    }""")
# unik: what its callers reuse of the 16 coefficients (xsf's cwrk) is their sum for I and their
# alternating sum for K, and the last value (sqrt of 1/(fnu sqrt(1 + t^2)))): kept as those three
# (48 bytes; unk1 held three sets of 16, 768 bytes). The sums are accumulated in xsf's order.
sub('unik', """        zcx *cwrk
    ) {""", """        unik_work *cwrk
    ) {""")
sub('unik', "            cwrk[15] = az_sqrt(sr);\n            *phi = cwrk[15] * con[ikflg - 1];",
    "            cwrk->c16 = az_sqrt(sr);\n            *phi = cwrk->c16 * con[ikflg - 1];")
sub('unik', """            t2 = 1. / s;
            cwrk[0] = 1.;
""", """            t2 = 1. / s;
            // (the sums start as xsf's: 0 + cwrk[0] + ...)
            zcx term = 1.;
            zcx sign = 1.0;
            cwrk->sum_i = zcx(0.0) + term;
            cwrk->sum_k = zcx(0.0) + sign * term;
""")
sub('unik', """                cwrk[k - 1] = crfn * s;
                ac *= rfn;
                tstr = az_real(cwrk[k - 1]);
                tsti = az_imag(cwrk[k - 1]);""", """                term = crfn * s;
                sign = -sign;
                cwrk->sum_i += term;
                cwrk->sum_k += sign * term;
                ac *= rfn;
                tstr = az_real(term);
                tsti = az_imag(term);""")
sub('unik', """            for (i = 0; i < (*init); i++) {
                *total += cwrk[i];
            }
            *phi = cwrk[15] * con[0];""", """            *total = cwrk->sum_i;
            *phi = cwrk->c16 * con[0];""")
sub('unik', """            for (i = 1; i < (*init + 1); i++) {
                *total += t * cwrk[i - 1];
                t = -t;
            }
            *phi = cwrk[15] * con[1];""", """            *total = cwrk->sum_k;
            *phi = cwrk->c16 * con[1];""")
sub('unik', '        int i, j, k, l;\n', '        int j, k, l;\n')
for f in ('uni1', 'uoik'):
    sub(f, "        zcx cwrk[16] = {0.};\n", "        unik_work cwrk;\n")
    funcs[f] = funcs[f].replace('&cwrk[0]', '&cwrk')
sub('unk1', "        zcx cwrk[3][16] = {{0.0}};\n", "        unik_work cwrk[3];\n")
funcs['unk1'] = re.sub(r'&cwrk\[([^\]]+)\]\[0\]', r'&cwrk[\1]', funcs['unk1'])
for f in funcs:
    assert 'cwrk[15]' not in funcs[f] and '[0]);' not in funcs[f].split('unik(')[-1][:0], f

# bknu, uni1, uni2, unk1, unk2: the scale factors css = {cscl, 1, crsc} and csr = {crsc, 1, cscl}
# (set once) picked by a select instead of read from local arrays (96 bytes each where complex);
# uni2 and unk2: i^k (cip) likewise
for f in ('bknu', 'uni1', 'uni2', 'unk1', 'unk2'):
    t = funcs[f]
    pick = 'sel3' if f == 'uni1' else 'sel3z'
    for arr, a, c in (('css', 'cscl', 'crsc'), ('csr', 'crsc', 'cscl')):
        decl = re.search(r'        (zcx|double) %s\[3\] = \{%s, 1\.0?, %s\};\n' % (arr, a, c), t)
        assert decl, (f, arr)
        t = t.replace(decl.group(0), '')
        assert ('%s[' % arr) in t
        t = re.sub(r'\b%s\[([^\]]+)\]' % arr, r'%s(\1, %s, 1.0, %s)' % (pick, a, c), t)
    funcs[f] = t
for f, decl, pick in (('uni2', '        zcx cip[4] = {1.0, zcx(0, 1), -1.0, -zcx(0, 1)};\n', 'ipow'),
                      ('unk2', '        zcx cip[4] = {1.0, -zcx(0, 1), -1.0, zcx(0, 1)};\n', 'mipow')):
    sub(f, decl, '')
    funcs[f] = re.sub(r'\bcip\[([^\]]+)\]', r'%s(\1)' % pick, funcs[f])
# uni2: iflag is set at i = 1 before every use (g++ cannot see it through the select)
sub('uni2', '        int i, iflag, in,', '        int i, iflag = 0, in,')
# bknu: its eight series coefficients from constant memory, not a local array
cc = re.search(r'        double cc\[8\] = (\{[^}]*\});\n', funcs['bknu'])
assert cc
funcs['bknu'] = funcs['bknu'].replace(cc.group(0), '')
funcs['bknu'] = re.sub(r'\bcc\[', 'dbknu_cc[', funcs['bknu'])
head = head + '\n\n    CSF_AMOS_TABLE dbknu_cc[8] = ' + cc.group(1) + ';\n'

# the underflow/overflow bounds bry = {ascle, 1/ascle, max} (bknu, unk1, unk2: set once; acon: set once
# before its reads) and acon's scale factors, selected likewise
for f in ('bknu', 'unk1', 'unk2'):
    t = funcs[f]
    decl = re.search(r'        double bry\[3\] = \{([^,]+), ([^,]+), ([^,}]+)\};\n', t)
    assert decl, f
    t = t.replace(decl.group(0), '')
    assert not re.search(r'\bbry\[[^\]]+\] =', t), f
    funcs[f] = re.sub(r'\bbry\[([^\]]+)\]', r'sel3(\1, %s, %s, %s)' % decl.groups(), t)
for line in ('        zcx css[3] = {0.0};\n', '        zcx csr[3] = {0.0};\n', '        double bry[3] = {0.0};\n',
             '                css[0] = cscl;\n', '                css[1] = 1.0;\n', '                css[2] = cscr;\n',
             '                csr[0] = cscr;\n', '                csr[1] = 1.0;\n', '                csr[2] = cscl;\n',
             '                bry[0] = ascle;\n', '                bry[1] = 1.0 / ascle;\n',
             '                bry[2] = 1.7976931348623157e+308;\n'):
    sub('acon', line, '')
for arr, vals in (('css', 'cscl, 1.0, cscr'), ('csr', 'cscr, 1.0, cscl')):
    funcs['acon'] = re.sub(r'\b%s\[([^\]]+)\]' % arr, r'sel3z(\1, %s)' % vals, funcs['acon'])
funcs['acon'] = re.sub(r'\bbry\[([^\]]+)\]', r'sel3(\1, ascle, 1.0 / ascle, 1.7976931348623157e+308)', funcs['acon'])

# unik inline (CSF_FN): its five outputs are its callers' scalars (and [2] arrays), passed by pointer;
# inlined, the scalars stay in registers instead of local memory
sub('unik', '    CSF_NOINLINE void unik(', '    CSF_FN void unik(')

T = args.out.rstrip('/') + '/'
notice = src[src.index('/*\n * Copyright (C) 2024 SciPy developers'):src.index('#pragma once')].rstrip()
# (no file over 800 lines: each group a few routines, in the order the headers are joined)
groups = {
 'amos_series': ('AMOS (amos_core.cuh says what and whence): log Gamma (gamln), the scaling helpers (uchk,\n'
                 '// s1s2, kscl), the ratios of I (rati) and the power series (seri). The methods for I built on\n'
                 '// them are in amos_i_methods.cuh, K\'s series in amos_bknu.cuh.',
                 ['gamln', 'uchk', 's1s2', 'kscl', 'rati', 'seri']),
 'amos_i_methods': ('AMOS (amos_core.cuh says what and whence): I by Miller\'s backward recurrence normalised by\n'
                    '// the Neumann series (mlri), the asymptotic expansion for large |z| (asyi), and the recurrence\n'
                    '// normalised by the Wronskian with K (wrsk, with rati\'s ratios).',
                    ['mlri', 'asyi', 'wrsk']),
 'amos_bknu': ('AMOS (amos_core.cuh says what and whence): K and its successor by Temme\'s series for small\n'
               '// |z| and Miller\'s algorithm otherwise (bknu), scaled by kscl.',
               ['bknu']),
 'amos_uniform': ('AMOS (amos_core.cuh says what and whence): the uniform asymptotic expansions\' parameters for\n'
                  '// large order, Olver\'s in terms of Airy functions (unhj) and of e^(zeta) (unik), and the\n'
                  '// overflow/underflow test (uoik). I by them: amos_uniform_i.cuh; K: amos_uniform_k1.cuh,\n'
                  '// amos_uniform_k2.cuh (with the drivers buni and bunk).',
                  ['unhj', 'unik', 'uoik']),
 'amos_uniform_i': ('AMOS (amos_core.cuh says what and whence): I for large order by the uniform asymptotic\n'
                    '// expansions, in terms of e^(zeta) (uni1) and of Airy functions (uni2).',
                    ['uni1', 'uni2']),
 'amos_uniform_k1': ('AMOS (amos_core.cuh says what and whence): K for large order by the uniform asymptotic\n'
                     '// expansion in terms of e^(zeta) (unk1), with its analytic continuation.',
                     ['unk1']),
 'amos_uniform_k2': ('AMOS (amos_core.cuh says what and whence): K for large order by the uniform asymptotic\n'
                     '// expansion in terms of Airy functions (unk2), and the drivers of the uniform expansions for\n'
                     '// I (buni) and K (bunk).',
                     ['unk2', 'buni', 'bunk']),
 'amos_drivers': ('AMOS (amos_core.cuh says what and whence): I in the right half plane by region (binu), the\n'
                  '// analytic continuation of K to the left half plane (acai, acon), and the driver for H^(1,2)\n'
                  '// (besh). The drivers for I and J: amos_drivers_ij.cuh; K and Y: amos_drivers_ky.cuh.',
                  ['binu', 'acai', 'acon', 'besh']),
 'amos_drivers_ij': ('AMOS (amos_core.cuh says what and whence): the drivers for I (besi) and J (besj).',
                     ['besi', 'besj']),
 'amos_drivers_ky': ('AMOS (amos_core.cuh says what and whence): the drivers for K (besk) and Y (besy).',
                     ['besk', 'besy']),
 'amos_airy': ('AMOS (amos_core.cuh says what and whence): the Airy functions Ai, Ai\' (airy) and Bi, Bi\'\n'
               '// (biry) of a complex argument.', ['airy', 'biry']),
}
used = set()
for g, (doc, names) in groups.items():
    guard = 'CUARRAY_SPECIAL_' + g.upper() + '_CUH'
    text = ['// ' + doc, '#ifndef ' + guard, '#define ' + guard, 'namespace cuarray_special {', 'namespace amos {', '']
    for n in names:
        text.append(funcs[n])
        used.add(n)
    text += ['}  // namespace amos', '}  // namespace cuarray_special', '#endif', '']
    open(T + g + '.cuh', 'w').write('\n'.join(text))
assert used == set(funcs), set(funcs) - used
core = PRELUDE + head.rstrip() + '\n\n}  // namespace amos\n}  // namespace cuarray_special\n\n' + \
    '// xsf\'s notice for amos.h, whose translation these files port:\n' + notice + '\n#endif\n'
open(T + 'amos_core.cuh', 'w').write(core)
