// AMOS (amos_core.cuh says what and whence): K and its successor by Temme's series for small
// |z| and Miller's algorithm otherwise (bknu), scaled by kscl.
#ifndef CUARRAY_SPECIAL_AMOS_BKNU_CUH
#define CUARRAY_SPECIAL_AMOS_BKNU_CUH
namespace cuarray_special {
namespace amos {

    CSF_NOINLINE int bknu(
        zcx z, double fnu, int kode, int n, zcx *y, double tol, double elim,
        double alim
    ) {

        //***BEGIN PROLOGUE  ZBKNU
        //***REFER TO  ZBESI,ZBESK,ZAIRY,ZBESH
        //
        //     ZBKNU COMPUTES THE K BESSEL FUNCTION IN THE RIGHT HALF Z PLANE.
        //
        //***ROUTINES CALLED  DGAMLN,I1MACH,D1MACH,ZKSCL,ZSHCH,ZUCHK,AZABS,ZDIV,
        //                    AZEXP,AZLOG,ZMLT,AZSQRT
        //***END PROLOGUE  ZBKNU

        zcx cch, ck, coef, crsc, cs, cscl, csh, cz, f, fmu, p, pt, p1, p2, q, rz, smu, st, s1, s2, zd;
        double aa, ak, ascle, a1, a2, bb, bk, caz, dnu, dnu2, etest, fc, fhs, fk, fks, g1, g2, p2i, p2m, p2r, rk, s, tm,
            t1, t2, xx, yy, elm, xd, yd, alas, as;
        int iflag, inu, k, kflag, kk, koded, j, ic, inub, i = 1;
        zcx cy[2];

        int kmax = 30;
        double r1 = 2.;
        double rthpi = 1.25331413731550025;
        double spi = 1.90985931710274403;
        double fpi = 1.89769999331517738;
        double tth = 2. / 3.;
        xx = az_real(z);
        yy = az_imag(z);
        caz = az_abs(z);
        cscl = 1. / tol;
        crsc = tol;
        int nz = 0;
        iflag = 0;
        koded = kode;
        rz = 2. / z;
        inu = (int)(fnu + 0.5);
        dnu = fnu - inu;
        // Definitions for silencing initialization warnings.
        s1 = 0.0;
        s2 = 0.0;
        ck = 0.0;
        dnu2 = 0.0;
        if (az_fabs(dnu) != 0.5) {
            if (az_fabs(dnu) > tol) {
                dnu2 = dnu * dnu;
            }
            if (caz <= r1) {
                //
                //    SERIES FOR ABS(Z) <= R1
                //
                fc = 1.;
                smu = az_log(rz);
                fmu = smu * dnu;
                csh = az_sinh(fmu);
                cch = az_cosh(fmu);
                if (dnu != 0.0) {
                    fc = dnu * k_pi;
                    fc *= 1. / az_sin(fc);
                    smu = csh / dnu;
                }
                a2 = 1. + dnu;
                //
                // GAM(1-Z)*GAM(1+Z)=PI*Z/SIN(PI*Z), T1=1/GAM(1-DNU), T2=1/GAM(1+DNU)
                //
                t2 = az_exp(-gamln(a2));
                t1 = 1. / (t2 * fc);
                if (az_fabs(dnu) <= 0.1) {
                    //
                    // SERIES FOR F0 TO RESOLVE INDETERMINACY FOR SMALL ABS(DNU)
                    //
                    ak = 1.;
                    s = dbknu_cc[0];
                    for (int k = 2; k < 9; k++) {
                        ak *= dnu2;
                        tm = dbknu_cc[k - 1] * ak;
                        s += tm;
                        if (az_fabs(tm) < tol) {
                            break;
                        }
                    }
                    g1 = -s;
                } else {
                    g1 = (t1 - t2) / (dnu + dnu);
                }
                g2 = 0.5 * (t1 + t2);
                f = fc * (g1 * cch + smu * g2);
                pt = az_exp(fmu);
                p = (0.5 / t2) * pt;
                q = (0.5 / t1) / pt;
                s1 = f;
                s2 = p;
                ak = 1.0;
                a1 = 1.0;
                ck = 1.0;
                bk = 1.0 - dnu2;
                if ((inu <= 0) && (n <= 1)) {
                    //
                    // GENERATE K(FNU,Z), 0.0D0  <=  FNU  <  0.5D0 AND N=1
                    //
                    if (caz >= tol) {
                        cz = z * z * 0.25;
                        t1 = 0.25 * caz * caz;
                        do {
                            f = (f * ak + p + q) / bk;
                            p = p / (ak - dnu);
                            q = q / (ak + dnu);
                            rk = 1.0 / ak;
                            ck *= cz * rk;
                            s1 += ck * f;
                            a1 *= t1 * rk;
                            bk += ak + ak + 1.0;
                            ak += 1.0;
                        } while (a1 > tol);
                    }
                    y[0] = s1;
                    if (koded == 1) {
                        return nz;
                    }
                    y[0] = s1 * az_exp(z);
                    return nz;
                }
                //
                // GENERATE K(DNU,Z) AND K(DNU+1,Z) FOR FORWARD RECURRENCE
                //
                if (caz >= tol) {
                    cz = z * z * 0.25;
                    t1 = 0.25 * caz * caz;
                    do {
                        f = (f * ak + p + q) / bk;
                        p *= 1.0 / (ak - dnu);
                        q *= 1.0 / (ak + dnu);
                        rk = 1. / ak;
                        ck *= cz * rk;
                        s1 += ck * f;
                        s2 += ck * (p - f * ak);
                        a1 *= t1 * rk;
                        bk += ak + ak + 1.0;
                        ak += 1.0;
                    } while (a1 > tol);
                }
                kflag = 2;
                bk = az_real(smu);
                a1 = fnu + 1.;
                ak = a1 * az_fabs(bk);
                if (ak > alim) {
                    kflag = 3;
                }
                p2 = s2 * sel3z(kflag - 1, cscl, 1.0, crsc);
                s2 = p2 * rz;
                s1 *= sel3z(kflag - 1, cscl, 1.0, crsc);
                if (koded != 1) {
                    f = az_exp(z);
                    s1 *= f;
                    s2 *= f;
                }
                goto L100;
            }
        }
        //
        // IFLAG=0 MEANS NO UNDERFLOW OCCURRED
        // IFLAG=1 MEANS AN UNDERFLOW OCCURRED- COMPUTATION PROCEEDS WITH
        // KODED=2 AND A TEST FOR ON SCALE VALUES IS MADE DURING FORWARD
        // RECURSION
        //
        coef = rthpi / az_sqrt(z);
        kflag = 2;
        if (koded != 2) {
            if (xx > alim) {
                koded = 2;
                iflag = 1;
                kflag = 2;
            } else {
                a1 = az_exp(-xx) * az_real(sel3z(kflag - 1, cscl, 1.0, crsc));
                pt = a1 * zcx(az_cos(yy), -az_sin(yy));
                coef *= pt;
            }
        }

        if (az_fabs(dnu) == 0.5) {
            s1 = coef;
            s2 = coef;
            goto L100;
        }
        //
        //    MILLER ALGORITHM FOR ABS(Z) > R1
        //
        ak = az_fabs(az_cos(k_pi * dnu));
        if (ak == 0.) {
            s1 = coef;
            s2 = coef;
            goto L100;
        }
        fhs = az_fabs(0.25 - dnu2);
        if (fhs == 0.) {
            s1 = coef;
            s2 = coef;
            goto L100;
        }
        //
        // COMPUTE R2=F(E). IF ABS(Z) >= R2, USE FORWARD RECURRENCE TO
        // DETERMINE THE BACKWARD INDEX K. R2=F(E) IS A STRAIGHT LINE ON
        // 12 <= E <= 60. E IS COMPUTED FROM 2**(-E)=B**(1-DIGITS(0.0_dp))=
        // TOL WHERE B IS THE BASE OF THE ARITHMETIC.
        //
        t1 = (53 - 1) * LOG10_2 * (az_log(10) / az_log(2));
        t1 = az_fmin(az_fmax(t1, 12.0), 60.0);
        t2 = tth * t1 - 6.0;
        t1 = az_fabs(az_atan2(yy, xx));
        if (t2 <= caz) {
            //
            // FORWARD RECURRENCE LOOP WHEN ABS(Z) >= R2
            //
            etest = ak / (k_pi * caz * tol);
            fk = 1.0;
            if (etest < 1.0) {
                goto L80;
            }
            fks = 2.0;
            rk = caz + caz + 2.0;
            a1 = 0.0;
            a2 = 1.0;
            for (i = 1; i < (kmax + 1); i++) {
                ak = fhs / fks;
                bk = rk / (fk + 1.0);
                tm = a2;
                a2 = bk * a2 - ak * a1;
                a1 = tm;
                rk += 2.;
                fks += fk + fk + 2.0;
                fhs += fk + fk;
                fk += 1.0;
                tm = az_fabs(a2) * fk;
                if (etest < tm) {
                    /* goto 160 */
                    break;
                }
                if (i == kmax) {
                    /* Didn't break so goes to 310 */
                    return -2;
                }
            }

            /* 160 */
            fk += spi * t1 * az_sqrt(t2 / caz);
            fhs = az_fabs(0.25 - dnu2);
        } else {
            //
            // COMPUTE BACKWARD INDEX K FOR ABS(Z) < R2
            //
            a2 = az_sqrt(caz);
            ak *= fpi / (tol * az_sqrt(a2));
            aa = 3.0 * t1 / (1.0 + caz);
            bb = 14.7 * t1 / (28.0 + caz);
            ak = (az_log(ak) + caz * az_cos(aa) / (1.0 + 0.008 * caz)) / az_cos(bb);
            fk = 0.12125 * ak * ak / caz + 1.5;
        }
    L80:
        //
        // BACKWARD RECURRENCE LOOP FOR MILLER ALGORITHM
        //
        k = (int)fk;
        fk = (double)k;
        fks = fk * fk;
        p1 = 0.0;
        p2 = tol;
        cs = p2;
        for (i = 1; i < (k + 1); i++) {
            a1 = fks - fk;
            a2 = (fks + fk) / (a1 + fhs);
            rk = 2.0 / (fk + 1.);
            t1 = (fk + xx) * rk;
            t2 = yy * rk;
            pt = p2;
            p2 = (p2 * zcx(t1, t2) - p1) * a2;
            p1 = pt;
            cs += p2;
            fks = a1 - fk + 1.0;
            fk -= 1.0;
        }

        //
        // COMPUTE (P2/CS)=(P2/ABS(CS))*(CONJG(CS)/ABS(CS)) FOR BETTER SCALING
        //
        tm = az_abs(cs);
        pt = 1.0 / tm;
        s1 = pt * p2;
        cs = az_conj(cs) * pt;
        s1 *= coef * cs;
        if ((inu <= 0) && (n <= 1)) {
            zd = z;
            if (iflag == 1) {
                goto L190;
            }
            goto L130;
        }
        //
        // COMPUTE P1/P2=(P1/ABS(P2)*CONJG(P2)/ABS(P2) FOR SCALING
        //
        tm = az_abs(p2);
        pt = 1.0 / tm;
        p1 = pt * p1;
        p2 = az_conj(p2) * pt;
        pt = p1 * p2;
        s2 = s1 * (1. + (dnu + 0.5 - pt) / z);
        //
        // FORWARD RECURSION ON THE THREE TERM RECURSION RELATION WITH
        // SCALING NEAR EXPONENT EXTREMES ON KFLAG=1 OR KFLAG=3
        //
    L100:
        ck = (dnu + 1.) * rz;
        if (n == 1) {
            inu -= 1;
        }
        if (inu <= 0) {
            if (n <= 1) {
                s1 = s2;
            }
            zd = z;
            if (iflag == 1) {
                goto L190;
            }
            goto L130;
        }
        inub = 1;
        if (iflag == 1) {
            goto L160;
        }
    L110:
        p1 = sel3z(kflag - 1, crsc, 1.0, cscl);
        ascle = sel3(kflag - 1, THRESHOLD_MIN / tol, tol / (THRESHOLD_MIN), 1.7976931348623157e+308);
        for (i = inub; i < inu + 1; i++) {
            st = s2;
            s2 = ck * s2 + s1;
            s1 = st;
            ck += rz;
            if (kflag < 3) {
                p2 = s2 * p1;
                p2m = az_fmax(az_fabs(az_real(p2)), az_fabs(az_imag(p2)));
                if (p2m > ascle) {
                    kflag += 1;
                    ascle = sel3(kflag - 1, THRESHOLD_MIN / tol, tol / (THRESHOLD_MIN), 1.7976931348623157e+308);
                    s1 *= p1;
                    s2 = p2;
                    s1 *= sel3z(kflag - 1, cscl, 1.0, crsc);
                    s2 *= sel3z(kflag - 1, cscl, 1.0, crsc);
                    p1 = sel3z(kflag - 1, crsc, 1.0, cscl);
                }
            }
        }
        if (n == 1) {
            s1 = s2;
        }

    L130:
        y[0] = s1 * sel3z(kflag - 1, crsc, 1.0, cscl);
        if (n == 1) {
            return nz;
        }
        y[1] = s2 * sel3z(kflag - 1, crsc, 1.0, cscl);
        if (n == 2) {
            return nz;
        }
        kk = 2;
    L140:
        kk += 1;
        if (kk > n) {
            return nz;
        }
        p1 = sel3z(kflag - 1, crsc, 1.0, cscl);
        ascle = sel3(kflag - 1, THRESHOLD_MIN / tol, tol / (THRESHOLD_MIN), 1.7976931348623157e+308);
        for (i = kk; i < (n + 1); i++) {
            p2 = s2;
            s2 = ck * s2 + s1;
            s1 = p2;
            ck += rz;
            p2 = s2 * p1;
            y[i - 1] = p2;
            if (kflag < 3) {
                p2m = az_fmax(az_fabs(az_real(p2)), az_fabs(az_imag(p2)));
                if (p2m > ascle) {
                    kflag += 1;
                    ascle = sel3(kflag - 1, THRESHOLD_MIN / tol, tol / (THRESHOLD_MIN), 1.7976931348623157e+308);
                    s1 *= p1;
                    s2 = p2;
                    s1 *= sel3z(kflag - 1, cscl, 1.0, crsc);
                    s2 *= sel3z(kflag - 1, cscl, 1.0, crsc);
                    p1 = sel3z(kflag - 1, crsc, 1.0, cscl);
                }
            }
        }
        return nz;
    //
    // IFLAG=1 CASES, FORWARD RECURRENCE ON SCALED VALUES ON UNDERFLOW
    //
    L160:
        elm = az_exp(-elim);
        ascle = sel3(0, THRESHOLD_MIN / tol, tol / (THRESHOLD_MIN), 1.7976931348623157e+308);
        zd = z;
        xd = xx;
        yd = yy;
        ic = -1;
        j = 2;
        for (i = 1; i < (inu + 1); i++) {
            st = s2;
            s2 = ck * s2 + s1;
            s1 = st;
            ck += rz;
            as = az_abs(s2);
            alas = az_log(as);
            p2r = alas - xd;
            if (p2r >= -elim) {
                p2 = -zd + az_log(s2);
                p2r = az_real(p2);
                p2i = az_imag(p2);
                p2m = az_exp(p2r) / tol;
                p1 = p2m * zcx(az_cos(p2i), az_sin(p2i));
                if (!(uchk(p1, ascle, tol))) {
                    j = 3 - j;
                    cy[j - 1] = p1;
                    if (ic == i - 1) {
                        goto L180;
                    }
                    ic = i;
                    continue;
                }
            }
            if (alas >= 0.5 * elim) {
                xd -= elim;
                s1 *= elm;
                s2 *= elm;
                zd = zcx(xd, yd);
            }
        }
        if (n == 1) {
            s1 = s2;
        }
        goto L190;
    L180:
        kflag = 1;
        inub = i + 1;
        s2 = cy[j - 1];
        j = 3 - j;
        s1 = cy[j - 1];
        if (inub <= inu) {
            goto L110;
        }
        if (n == 1) {
            s1 = s2;
        }
        goto L130;
    L190:
        y[0] = s1;
        if (n != 1) {
            y[1] = s2;
        }
        ascle = sel3(0, THRESHOLD_MIN / tol, tol / (THRESHOLD_MIN), 1.7976931348623157e+308);
        nz = kscl(zd, fnu, n, &y[0], rz, &ascle, tol, elim);
        inu = n - nz;
        if (inu <= 0) {
            return nz;
        }
        kk = nz + 1;
        s1 = y[kk - 1];
        y[kk - 1] = s1 * sel3z(0, crsc, 1.0, cscl);
        if (inu == 1) {
            return nz;
        }
        kk = nz + 2;
        s2 = y[kk - 1];
        y[kk - 1] = s2 * sel3z(0, crsc, 1.0, cscl);
        if (inu == 2) {
            return nz;
        }
        t2 = fnu + (kk - 1);
        ck = t2 * rz;
        kflag = 1;
        goto L140;
    }

}  // namespace amos
}  // namespace cuarray_special
#endif
