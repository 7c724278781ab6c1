// AMOS (amos_core.cuh says what and whence): I for large order by the uniform asymptotic
// expansions, in terms of e^(zeta) (uni1) and of Airy functions (uni2).
#ifndef CUARRAY_SPECIAL_AMOS_UNIFORM_I_CUH
#define CUARRAY_SPECIAL_AMOS_UNIFORM_I_CUH
namespace cuarray_special {
namespace amos {

    CSF_NOINLINE void uni1(
        zcx z, double fnu, int kode, int n, zcx *y, int *nz, int *nlast, double fnul,
        double tol, double elim, double alim
    ) {

        //***BEGIN PROLOGUE  ZUNI1
        //***REFER TO  ZBESI,ZBESK
        //
        //     ZUNI1 COMPUTES I(FNU,Z)  BY MEANS OF THE UNIFORM ASYMPTOTIC
        //     EXPANSION FOR I(FNU,Z) IN -PI/3.LE.ARG Z.LE.PI/3.
        //
        //     FNUL IS THE SMALLEST ORDER PERMITTED FOR THE ASYMPTOTIC
        //     EXPANSION. NLAST=0 MEANS ALL OF THE Y VALUES WERE SET.
        //     NLAST.NE.0 IS THE NUMBER LEFT TO BE COMPUTED BY ANOTHER
        //     FORMULA FOR ORDERS FNU TO FNU+NLAST-1 BECAUSE FNU+NLAST-1.LT.FNUL.
        //     Y(I)=CZERO FOR I=NLAST+1,N
        //
        //***ROUTINES CALLED  ZUCHK,ZUNIK,ZUOIK,D1MACH,AZABS
        //***END PROLOGUE  ZUNI1

        zcx c2, phi, rz, sum, s1, s2, zeta1 = 0, zeta2 = 0;
        double aphi, ascle, c1r, crsc, cscl, fn, rs1;
        int i, iflag, init, k, m, nd, nn, nuf;
        unik_work cwrk;
        zcx cy[2] = {0.};
        *nz = 0;
        nd = n;
        *nlast = 0;
        //
        // COMPUTED VALUES WITH EXPONENTS BETWEEN ALIM AND ELIM IN
        // MAGNITUDE ARE SCALED TO KEEP INTERMEDIATE ARITHMETIC ON SCALE,
        // EXP(ALIM)=EXP(ELIM)*TOL
        //
        cscl = 1.0 / tol;
        crsc = tol;
        double bry[3] = {THRESHOLD_MIN / tol, 0., 0.};
        bry[1] = 1.0 / bry[0];
        bry[2] = 1.7976931348623157e+308;
        //
        // CHECK FOR UNDERFLOW AND OVERFLOW ON FIRST MEMBER
        //
        fn = az_fmax(fnu, 1.0);
        init = 0;
        unik(z, fn, 1, 1, tol, &init, &phi, &zeta1, &zeta2, &sum, &cwrk);
        if (kode != 1) {
            s1 = -zeta1 + fn * (fn / (z + zeta2));
        } else {
            s1 = -zeta1 + zeta2;
        }

        rs1 = az_real(s1);
        if (az_fabs(rs1) > elim) {
            if (rs1 > 0) {
                *nz = -1;
                return;
            }
            *nz = n;
            for (i = 0; i < n; i++) {
                y[i] = 0.0;
            }
        }
    L30:
        nn = (nd > 2 ? 2 : nd);
        for (i = 1; i < (nn + 1); i++) {
            fn = fnu + nd - i;
            init = 0;
            unik(z, fn, 1, 0, tol, &init, &phi, &zeta1, &zeta2, &sum, &cwrk);
            if (kode != 1) {
                s1 = -zeta1 + fn * (fn / (z + zeta2)) + zcx(0.0, az_imag(z));
            } else {
                s1 = -zeta1 + zeta2;
            }
            //
            // TEST FOR UNDERFLOW AND OVERFLOW
            //
            rs1 = az_real(s1);
            if (az_fabs(rs1) > elim) {
                goto L110;
            }
            if (i == 1) {
                iflag = 2;
            }
            if (az_fabs(rs1) >= alim) {
                //
                // REFINE TEST AND SCALE
                //
                aphi = az_abs(phi);
                rs1 += az_log(aphi);
                if (az_fabs(rs1) > elim) {
                    goto L110;
                }
                if (i == 1) {
                    iflag = 1;
                }
                if (rs1 >= 0.0) {
                    if (i == 1) {
                        iflag = 3;
                    }
                }
            }
            /* 60 */
            //
            // SCALE S1 IF CABS(S1) < ASCLE
            //
            s2 = phi * sum;
            s1 = az_exp(az_real(s1)) * sel3(iflag - 1, cscl, 1.0, crsc) *
                 zcx(az_cos(az_imag(s1)), az_sin(az_imag(s1)));
            s2 *= s1;
            if (iflag == 1) {
                if (uchk(s2, bry[0], tol)) {
                    goto L110;
                }
            }
            /* 70 */
            cy[i - 1] = s2;
            m = nd - i + 1;
            y[m - 1] = s2 * sel3(iflag - 1, crsc, 1.0, cscl);
        }
        /* 80 */
        if (nd > 2) {
            rz = 2.0 / z;
            s1 = cy[0];
            s2 = cy[1];
            c1r = sel3(iflag - 1, crsc, 1.0, cscl);
            ascle = bry[iflag - 1];
            k = nd - 2;
            fn = k;
            for (i = 3; i < (nd + 1); i++) {
                c2 = s2;
                s2 = s1 + (fnu + fn) * rz * c2;
                s1 = c2;
                c2 = s2 * c1r;
                y[k - 1] = c2;
                k -= 1;
                fn -= 1.0;
                if (iflag >= 3) {
                    continue;
                }
                if (az_fmax(az_fabs(az_real(c2)), az_fabs(az_imag(c2))) <= ascle) {
                    continue;
                }
                iflag += 1;
                ascle = bry[iflag - 1];
                s1 *= c1r;
                s2 = c2;
                s1 *= sel3(iflag - 1, cscl, 1.0, crsc);
                s2 *= sel3(iflag - 1, cscl, 1.0, crsc);
                c1r = sel3(iflag - 1, crsc, 1.0, cscl);
            }
            /* 90 */
        }
        /* 100 */
        return;
    L110:
        if (rs1 > 0.0) {
            *nz = -1;
            return;
        }
        y[nd - 1] = 0.0;
        *nz += 1;
        nd -= 1;
        if (nd == 0) {
            return;
        }
        nuf = uoik(z, fnu, kode, 1, nd, y, tol, elim, alim);
        if (nuf < 0) {
            *nz = -1;
            return;
        }
        nd -= nuf;
        *nz += nuf;
        if (nd == 0) {
            return;
        }
        fn = fnu + nd - 1;
        if (fn >= fnul) {
            goto L30;
        }
        *nlast = nd;
        return;
    }

    CSF_NOINLINE void uni2(
        zcx z, double fnu, int kode, int n, zcx *y, int *nz, int *nlast, double fnul,
        double tol, double elim, double alim
    ) {

        //***BEGIN PROLOGUE  ZUNI2
        //***REFER TO  ZBESI,ZBESK
        //
        //     ZUNI2 COMPUTES I(FNU,Z) IN THE RIGHT HALF PLANE BY MEANS OF
        //     UNIFORM ASYMPTOTIC EXPANSION FOR J(FNU,ZN) WHERE ZN IS Z*I
        //     OR -Z*I AND ZN IS IN THE RIGHT HALF PLANE ALSO.
        //
        //     FNUL IS THE SMALLEST ORDER PERMITTED FOR THE ASYMPTOTIC
        //     EXPANSION. NLAST=0 MEANS ALL OF THE Y VALUES WERE SET.
        //     NLAST.NE.0 IS THE NUMBER LEFT TO BE COMPUTED BY ANOTHER
        //     FORMULA FOR ORDERS FNU TO FNU+NLAST-1 BECAUSE FNU+NLAST-1.LT.FNUL.
        //     Y(I)=CZERO FOR I=NLAST+1,N
        //
        //***ROUTINES CALLED  ZAIRY,ZUCHK,ZUNHJ,ZUOIK,D1MACH,AZABS
        //***END PROLOGUE  ZUNI2

        zcx ai, arg, asum, bsum, cfn, cid, crsc, cscl, c1, c2, dai, phi, rz, s1, s2, zb, zeta1, zeta2,
            zn, zar;
        double aarg, ang, aphi, ascle, ay, c2i, c2m, c2r, fn, rs1, yy;
        int i, iflag = 0, in, inu, j, k, nai, nd, ndai, nn, nuf, idum;
        double aic = 1.265512123484645396; /* log(2 sqrt(pi)) */
        zcx ci = zcx(0, 1);
        //
        // COMPUTED VALUES WITH EXPONENTS BETWEEN ALIM AND ELIM IN MAGNITUDE
        // ARE SCALED TO KEEP INTERMEDIATE ARITHMETIC ON SCALE,
        // EXP(ALIM) = EXP(ELIM)*TOL
        //
        cscl = 1.0 / tol;
        crsc = tol;
        double bry[3] = {THRESHOLD_MIN / tol, 0.0, 0.0};
        zcx cy[2] = {0.0};
        yy = az_imag(z);
        *nz = 0;
        nd = n;
        *nlast = 0;
        //
        // ZN IS IN THE RIGHT HALF PLANE AFTER ROTATION BY CI OR -CI
        //
        zn = -z * ci;
        zb = z;
        cid = -ci;
        inu = (int)fnu;
        ang = k_pi_2 * (fnu - inu);
        c2 = zcx(az_cos(ang), az_sin(ang));
        zar = c2;
        in = inu + n - 1;
        in = in % 4;
        c2 *= ipow(in);
        if (yy <= 0.0) {
            zn = az_conj(-zn);
            zb = az_conj(zb);
            cid = -cid;
            c2 = az_conj(c2);
        }
        //
        // CHECK FOR UNDERFLOW AND OVERFLOW ON FIRST MEMBER
        //
        fn = az_fmax(fnu, 1.0);
        unhj(zn, fn, 0, tol, &phi, &arg, &zeta1, &zeta2, &asum, &bsum);
        if (kode != 1) {
            cfn = fnu;
            s1 = -zeta1 + cfn * (cfn / (zb + zeta2));
        } else {
            s1 = -zeta1 + zeta2;
        }
        rs1 = az_real(s1);
        if (az_fabs(rs1) > elim) {
            if (rs1 > 0.) {
                *nz = -1;
                return;
            }
            for (i = 0; i < n; i++) {
                y[i] = 0.0;
            }
            return;
        }
    L10:
        nn = (nd > 2 ? 2 : nd);
        i = 1;
        for (i = 1; i < (nn + 1); i++) {
            fn = fnu + (nd - i);
            unhj(zn, fn, 0, tol, &phi, &arg, &zeta1, &zeta2, &asum, &bsum);
            if (kode != 1) {
                cfn = fn;
                ay = az_fabs(yy);
                s1 = -zeta1 + cfn * (cfn / (zb + zeta2)) + ay * zcx(0, 1);
            } else {
                s1 = -zeta1 + zeta2;
            }
            //
            // TEST FOR UNDERFLOW AND OVERFLOW
            //
            rs1 = az_real(s1);
            if (az_fabs(rs1) > elim) {
                goto L50;
            }
            if (i == 1) {
                iflag = 2;
            }
            if (az_fabs(rs1) >= alim) {
                //
                // REFINE TEST AND SCALE
                //
                aphi = az_abs(phi);
                aarg = az_abs(arg);
                rs1 += az_log(aphi) - 0.25 * az_log(aarg) - aic;
                if (az_fabs(rs1) > elim) {
                    goto L50;
                }
                if (i == 1) {
                    iflag = 1;
                }
                if (rs1 >= 0.0) {
                    if (i == 1) {
                        iflag = 3;
                    }
                }
            }
            //
            // SCALE S1 TO KEEP INTERMEDIATE ARITHMETIC ON SCALE NEAR
            // EXPONENT EXTREMES
            //
            ai = airy(arg, 0, 2, &nai, &idum);
            dai = airy(arg, 1, 2, &ndai, &idum);
            s2 = phi * (ai * asum + dai * bsum);
            c2r = az_exp(az_real(s1)) * az_real(sel3z(iflag - 1, cscl, 1.0, crsc));
            c2i = az_imag(s1);
            s1 = c2r * zcx(az_cos(c2i), az_sin(c2i));
            s2 *= s1;
            if (iflag == 1) {
                if (uchk(s2, bry[0], tol)) {
                    goto L50;
                }
            }
            if (yy <= 0.0) {
                s2 = az_conj(s2);
            }
            j = nd - i + 1;
            s2 *= c2;
            cy[i - 1] = s2;
            y[j - 1] = s2 * sel3z(iflag - 1, crsc, 1.0, cscl);
            c2 *= cid;
        }
        if (nd > 2) {
            rz = 2.0 / z;
            bry[1] = 1.0 / bry[0];
            bry[2] = 1.7976931348623157e+308;
            s1 = cy[0];
            s2 = cy[1];
            c1 = sel3z(iflag - 1, crsc, 1.0, cscl);
            ascle = bry[iflag - 1];
            k = nd - 2;
            fn = k;
            for (i = 3; i < (nd + 1); i++) {
                c2 = s2;
                s2 = s1 + (fnu + fn) * rz * s2;
                s1 = c2;
                c2 = s2 * c1;
                y[k - 1] = c2;
                k -= 1;
                fn -= 1.0;
                if (iflag < 3) {
                    c2r = az_fabs(az_real(c2));
                    c2i = az_fabs(az_imag(c2));
                    c2m = az_fmax(c2r, c2i);
                    if (c2m > ascle) {
                        iflag += 1;
                        ascle = bry[iflag - 1];
                        s1 *= c1;
                        s2 = c2;
                        s1 *= sel3z(iflag - 1, cscl, 1.0, crsc);
                        s2 *= sel3z(iflag - 1, cscl, 1.0, crsc);
                        c1 = sel3z(iflag - 1, crsc, 1.0, cscl);
                    }
                }
            }
        }
        return;
    L50:
        if (rs1 <= 0.0) {
            //
            // SET UNDERFLOW AND UPDATE PARAMETERS
            //
            y[nd - 1] = 0.0;
            *nz += 1;
            nd -= 1;
            if (nd == 0) {
                return;
            }
            nuf = uoik(z, fnu, kode, 1, nd, y, tol, elim, alim);
            if (nuf >= 0) {
                nd -= nuf;
                *nz += nuf;
                if (nd == 0) {
                    return;
                }
                fn = fnu + nd - 1;
                if (fn >= fnul) {
                    // The following was commented out in the original F77 code
                    // C      FN = CIDI
                    // C      J = NUF + 1
                    // C      K = MOD(J,4) + 1
                    // C      S1R = CIPR(K)
                    // C      S1I = CIPI(K)
                    // C      IF (FN.LT.0.0D0) S1I = -S1I
                    // C      STR = C2R*S1R - C2I*S1I
                    // C      C2I = C2R*S1I + C2I*S1R
                    // C      C2R = STR
                    in = (inu + nd - 1) % 4;
                    c2 = zar * ipow(in);
                    if (yy <= 0.0) {
                        c2 = az_conj(c2);
                    }
                    goto L10;
                }
                *nlast = nd;
                return;
            }
        }
        *nz = -1;
        return;
    }

}  // namespace amos
}  // namespace cuarray_special
#endif
