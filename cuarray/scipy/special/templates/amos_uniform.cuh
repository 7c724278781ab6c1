// AMOS (amos_core.cuh says what and whence): the uniform asymptotic expansions for large
// order: Olver's in terms of e^(zeta) (unik, uni1, unk1) and of Airy functions (unhj, uni2, unk2),
// their drivers for I (buni) and K (bunk), and the overflow/underflow test (uoik).
#ifndef CUARRAY_SPECIAL_AMOS_UNIFORM_CUH
#define CUARRAY_SPECIAL_AMOS_UNIFORM_CUH
namespace cuarray_special {
namespace amos {

    CSF_NOINLINE void unhj(
        zcx z, double fnu, int ipmtr, double tol, zcx *phi, zcx *arg,
        zcx *zeta1, zcx *zeta2, zcx *asum, zcx *bsum
    ) {

        //***BEGIN PROLOGUE  ZUNHJ
        //***REFER TO  ZBESI,ZBESK
        //
        //     REFERENCES
        //         HANDBOOK OF MATHEMATICAL FUNCTIONS BY M. ABRAMOWITZ AND I.A.
        //         STEGUN, AMS55, NATIONAL BUREAU OF STANDARDS, 1965, CHAPTER 9.
        //
        //         ASYMPTOTICS AND SPECIAL FUNCTIONS BY F.W.J. OLVER, ACADEMIC
        //         PRESS, N.Y., 1974, PAGE 420
        //
        //     ABSTRACT
        //         ZUNHJ COMPUTES PARAMETERS FOR BESSEL FUNCTIONS C(FNU,Z) =
        //         J(FNU,Z), Y(FNU,Z) OR H(I,FNU,Z) I=1,2 FOR LARGE ORDERS FNU
        //         BY MEANS OF THE UNIFORM ASYMPTOTIC EXPANSION
        //
        //         C(FNU,Z)=C1*PHI*( ASUM*AIRY(ARG) + C2*BSUM*DAIRY(ARG) )
        //
        //         FOR PROPER CHOICES OF C1, C2, AIRY AND DAIRY WHERE AIRY IS
        //         AN AIRY FUNCTION AND DAIRY IS ITS DERIVATIVE.
        //
        //               (2/3)*FNU*ZETA**1.5 = ZETA1-ZETA2,
        //
        //         ZETA1=0.5*FNU*CLOG((1+W)/(1-W)), ZETA2=FNU*W FOR SCALING
        //         PURPOSES IN AIRY FUNCTIONS FROM CAIRY OR CBIRY.
        //
        //         MCONJ=SIGN OF AIMAG(Z), BUT IS AMBIGUOUS WHEN Z IS REAL AND
        //         MUST BE SPECIFIED. IPMTR=0 RETURNS ALL PARAMETERS. IPMTR=
        //         1 COMPUTES ALL EXCEPT ASUM AND BSUM.
        //
        //***ROUTINES CALLED  AZABS,ZDIV,AZLOG,AZSQRT,D1MACH
        //***END PROLOGUE  ZUNHJ

        zcx cfnu, ptfn, rtzta, rzth, suma, sumb;
        zcx tfn, t2, w, w2, za, zb, zc, zeta, zth;
        double ang, atol, aw2, azth, btol, fn13, fn23, pp, rfn13;
        double rfnu, rfnu2, wi, wr, zci, zcr, zetai, zetar, zthi;
        double zthr, asumr, asumi, bsumr, bsumi, test, ac;
        double ex1 = 1. / 3.;
        double ex2 = 2. / 3.;
        double thpi = 4.71238898038468986;
        int ias, ibs, j, ju, k, kmax, kp1, ks, l, lrp1, l1, l2, m;
        /* array vars */
        zcx pr;
        zcx up[14] = {0.};
        zcx pk;
        double apk;

        rfnu = 1. / fnu;
        //
        // OVERFLOW TEST (Z/FNU TOO SMALL)
        //
        ac = fnu * THRESHOLD_MIN;
        if ((az_fabs(az_real(z)) <= ac) && (az_fabs(az_imag(z)) <= ac)) {
            *zeta1 = 2.0 * az_fabs(az_log(THRESHOLD_MIN)) + fnu;
            *zeta2 = fnu;
            *phi = 1.;
            *arg = 1.;
            return;
        }
        zb = z * rfnu;
        rfnu2 = rfnu * rfnu;
        //
        // COMPUTE IN THE FOURTH QUADRANT
        //
        fn13 = az_pow(fnu, ex1);
        fn23 = fn13 * fn13;
        rfn13 = 1.0 / fn13;
        w2 = 1.0 - zb * zb;
        /* AMOS AZSQRT and C CSQRT differs when imaginary 0.0 swaps sign */
        w2 = 1.0 - zb * zb;
        if (az_imag(w2) == -0.0) {
            w2 = az_real(w2);
        }
        aw2 = az_abs(w2);
        if (aw2 <= 0.25) {
            //
            // POWER SERIES FOR ABS(W2) <= 0.25
            //
            k = 1;
            pk = 1.;
            suma = zunhj_gama[0];
            apk = 1.;
            if (aw2 >= tol) {
                for (k = 2; k < 31; k++) {
                    pk = pk * w2;
                    suma += pk * zunhj_gama[k - 1];
                    apk = apk * aw2;
                    if (apk < tol) {
                        break;
                    }
                }
            }
            /* Check for exhausted loop */
            if (k == 31) {
                k = 30;
            }

            kmax = k;
            zeta = w2 * suma;
            *arg = zeta * fn23;
            za = az_sqrt(suma);
            *zeta2 = az_sqrt(w2) * fnu;
            *zeta1 = (*zeta2) * (1. + zeta * za * ex2);
            za = za + za;
            *phi = az_sqrt(za) * rfn13;
            if (ipmtr == 1) {
                return;
            }
            //
            // SUM SERIES FOR ASUM AND BSUM
            //
            sumb = 0.0;
            pk = 1.;
            for (k = 1; k < (kmax + 1); k++) {
                if (k > 1) {
                    pk = pk * w2;
                }
                sumb += pk * zunhj_beta[k - 1];
            }
            *asum = 0.0;
            *bsum = sumb;
            l1 = 0;
            l2 = 30;
            btol = tol * (az_fabs(az_real(*bsum)) + az_fabs(az_imag(*bsum)));
            atol = tol;
            pp = 1.0;
            ias = 0;
            ibs = 0;
            if (rfnu2 < tol) {
                /* 110 */
                *asum += 1.;
                *bsum *= rfnu * rfn13;
                /* 120 */
                return;
            }
            for (int is = 2; is < 8; is++) {
                atol /= rfnu2;
                pp *= rfnu2;
                if (ias != 1) {
                    suma = 0.0;
                    pk = 1.;
                    apk = 1.;
                    for (k = 1; k < (kmax + 1); k++) {
                        if (k > 1) {
                            pk = pk * w2;
                            apk = apk * aw2;
                        }
                        m = l1 + k;
                        suma += pk * zunhj_alfa[m - 1];
                        if (apk < atol) {
                            break;
                        }
                    }
                    *asum += suma * pp;
                    if (pp < tol) {
                        ias = 1;
                    }
                }
                if (ibs != 1) {
                    sumb = 0.0;
                    pk = 1.;
                    apk = 1.;
                    for (k = 1; k < (kmax + 1); k++) {
                        if (k > 1) {
                            pk = pk * w2;
                            apk = apk * aw2;
                        }
                        m = l2 + k;
                        sumb += pk * zunhj_beta[m - 1];
                        if (apk < atol) {
                            break;
                        }
                    }
                    *bsum += sumb * pp;
                    if (pp < btol) {
                        ibs = 1;
                    }
                }
                if ((ias == 1) && (ibs == 1)) {
                    break;
                }
                l1 += 30;
                l2 += 30;
            }
            *asum += 1.;
            *bsum *= rfnu * rfn13;
            return;
        } else {
            //
            // ABS(W2) > 0.25
            w = az_sqrt(w2);
            wr = az_real(w);
            wi = az_imag(w);
            if (wr < 0) {
                wr = 0.;
            }
            if (wi < 0) {
                wi = 0.;
            }
            za = (1. + w) / zb;
            zc = az_log(za);
            zcr = az_real(zc);
            zci = az_imag(zc);
            if (zci < 0) {
                zci = 0.;
            }
            if (zci > k_pi_2) {
                zci = k_pi_2;
            }
            if (zcr < 0) {
                zcr = 0.;
            }
            zc = zcx(zcr, zci);
            zth = (zc - w) * 1.5;
            cfnu = fnu;
            *zeta1 = zc * cfnu;
            *zeta2 = w * cfnu;
            azth = az_abs(zth);
            zthr = az_real(zth);
            zthi = az_imag(zth);
            ang = thpi;
            if ((zthr < 0.) || (zthi >= 0.)) {
                ang = k_pi_2;
                if (zthr != 0.) {
                    ang = az_atan(zthi / zthr);
                    if (zthr < 0.) {
                        ang += k_pi;
                    }
                }
            }
            pp = az_pow(azth, ex2);
            ang *= ex2;
            zetar = pp * az_cos(ang);
            zetai = pp * az_sin(ang);
            if (zetai < 0.) {
                zetai = 0.;
            }
            zeta = zcx(zetar, zetai);
            *arg = zeta * fn23;
            rtzta = zth / zeta;
            za = rtzta / w;
            *phi = az_sqrt(za + za) * rfn13;
            if (ipmtr == 1) {
                return;
            }
            tfn = rfnu / w;
            rzth = rfnu / zth;
            zc = rzth * zunhj_ar[1];
            t2 = 1. / w2;
            up[1] = (t2 * zunhj_c[1] + zunhj_c[2]) * tfn;
            *bsum = up[1] + zc;
            *asum = 0.;

            if (rfnu < tol) {
                *asum += 1.;
                *bsum *= -rfn13 / rtzta;
                return;
            }

            ptfn = tfn;
            up[0] = 1.0;
            pp = 1.0;
            bsumr = az_real(*bsum);
            bsumi = az_imag(*bsum);
            btol = tol * (az_fabs(bsumr) + az_fabs(bsumi));
            ks = 0;
            kp1 = 2;
            l = 3;
            ias = 0;
            ibs = 0;

            for (int lr = 2; lr < 13; lr += 2) {
                lrp1 = lr + 1;
                //
                // COMPUTE TWO ADDITIONAL CR, DR, AND UP FOR TWO MORE TERMS IN
                // NEXT SUMA AND SUMB
                //
                for (k = lr; k < (lrp1 + 1); k++) {
                    ks += 1;
                    kp1 += 1;
                    l += 1;
                    za = zunhj_c[l - 1];
                    for (j = 2; j < (kp1 + 1); j++) {
                        l += 1;
                        za = za * t2 + zunhj_c[l - 1];
                    }
                    ptfn *= tfn;
                    up[kp1 - 1] = ptfn * za;
                }
                pp *= rfnu2;
                if (ias != 1) {
                    suma = up[lr];
                    ju = lrp1;
                    pr = rzth;
                    for (int jr = 1; jr < lrp1; jr++) {
                        ju -= 1;
                        suma += (pr * zunhj_br[jr]) * up[ju - 1];
                        pr *= rzth;
                    }
                    *asum += suma;
                    asumr = az_real(*asum);
                    asumi = az_imag(*asum);
                    test = az_fabs(asumr) + az_fabs(asumi);
                    if ((pp < tol) && (test < tol)) {
                        ias = 1;
                    }
                }
                if (ibs != 1) {
                    sumb = up[lr + 1] + up[lr] * zc;
                    ju = lrp1;
                    pr = rzth;
                    for (int jr = 1; jr < lrp1; jr++) {
                        ju -= 1;
                        pr *= rzth;
                        sumb += (pr * zunhj_ar[jr + 1]) * up[ju - 1];
                    }
                    *bsum += sumb;
                    bsumr = az_real(*bsum);
                    bsumi = az_imag(*bsum);
                    test = az_fabs(bsumr) + az_fabs(bsumi);
                    if ((pp < tol) && (test < tol)) {
                        ibs = 1;
                    }
                }
                if ((ias == 1) && (ibs == 1)) {
                    break;
                }
            }
            *asum += 1.;
            *bsum *= -rfn13 / rtzta;
            return;
        }
    }

    CSF_FN void unik(
        zcx zr, double fnu, int ikflg, int ipmtr, double tol, int *init, zcx *phi,
        zcx *zeta1, zcx *zeta2, zcx *total,
        unik_work *cwrk
    ) {

        //***BEGIN PROLOGUE  ZUNIK
        //***REFER TO  ZBESI,ZBESK
        //
        //        ZUNIK COMPUTES PARAMETERS FOR THE UNIFORM ASYMPTOTIC
        //        EXPANSIONS OF THE I AND K FUNCTIONS ON IKFLG= 1 OR 2
        //        RESPECTIVELY BY
        //
        //        W(FNU,ZR) = PHI*EXP(ZETA)*SUM
        //
        //        WHERE       ZETA=-ZETA1 + ZETA2       OR
        //                          ZETA1 - ZETA2
        //
        //        THE FIRST CALL MUST HAVE INIT=0. SUBSEQUENT CALLS WITH THE
        //        SAME ZR AND FNU WILL RETURN THE I OR K FUNCTION ON IKFLG=
        //        1 OR 2 WITH NO CHANGE IN INIT. CWRK IS A COMPLEX WORK
        //        ARRAY. IPMTR=0 COMPUTES ALL PARAMETERS. IPMTR=1 COMPUTES PHI,
        //        ZETA1,ZETA2.
        //
        //***ROUTINES CALLED  ZDIV,AZLOG,AZSQRT,D1MACH
        //***END PROLOGUE  ZUNIK

        zcx cfn, crfn, s, sr, t, t2, zn;
        double ac, rfn, test, tstr, tsti;
        int j, k, l;
        /* ( 1/sqrt(2 PI), sqrt(PI/2) ) */
        double con[2] = {3.98942280401432678e-01, 1.25331413731550025};

        if (*init == 0) {
            rfn = 1. / fnu;
            crfn = rfn;

            tstr = az_real(zr);
            tsti = az_imag(zr);
            ac = fnu * THRESHOLD_MIN;
            if ((az_fabs(tstr) <= ac) && (az_fabs(tsti) <= ac)) {
                ac = 2.0 * az_fabs(az_log(THRESHOLD_MIN)) + fnu;
                *zeta1 = ac;
                *zeta2 = fnu;
                *phi = 1.0;
            }
            t = zr * crfn;
            s = 1.0 + t * t;
            sr = az_sqrt(s);
            cfn = fnu;
            zn = (1. + sr) / t;
            *zeta1 = cfn * az_log(zn);
            *zeta2 = cfn * sr;
            t = 1.0 / sr;
            sr = t * crfn;
            cwrk->c16 = az_sqrt(sr);
            *phi = cwrk->c16 * con[ikflg - 1];
            if (ipmtr != 0) {
                return;
            }
            t2 = 1. / s;
            // (the sums start as xsf's: 0 + cwrk[0] + ...)
            zcx term = 1.;
            zcx sign = 1.0;
            cwrk->sum_i = zcx(0.0) + term;
            cwrk->sum_k = zcx(0.0) + sign * term;
            crfn = 1.;
            ac = 1.;
            l = 1;
            k = 2;
            for (k = 2; k < 16; k++) {
                s = 0.0;
                for (j = 1; j < (k + 1); j++) {
                    l += 1;
                    s = s * t2 + zunik_c[l - 1];
                }
                crfn *= sr;
                term = crfn * s;
                sign = -sign;
                cwrk->sum_i += term;
                cwrk->sum_k += sign * term;
                ac *= rfn;
                tstr = az_real(term);
                tsti = az_imag(term);
                test = az_fabs(tstr) + az_fabs(tsti);
                if ((ac < tol) && (test < tol)) {
                    break;
                }
            }
            /* Guard against exhausted loop */
            if (k == 16) {
                k -= 1;
            }
            *init = k;
        }

        *total = 0.0;
        t = 1.0;
        if (ikflg != 2) {

            *total = cwrk->sum_i;
            *phi = cwrk->c16 * con[0];

        } else {

            *total = cwrk->sum_k;
            *phi = cwrk->c16 * con[1];
        }
        return;
    }

    CSF_NOINLINE int uoik(
        zcx z, double fnu, int kode, int ikflg, int n, zcx *y, double tol,
        double elim, double alim
    ) {

        //***BEGIN PROLOGUE  ZUOIK
        //***REFER TO  ZBESI,ZBESK,ZBESH
        //
        //     ZUOIK COMPUTES THE LEADING TERMS OF THE UNIFORM ASYMPTOTIC
        //     EXPANSIONS FOR THE I AND K FUNCTIONS AND COMPARES THEM
        //     (IN LOGARITHMIC FORM) TO ALIM AND ELIM FOR OVER AND UNDERFLOW
        //     WHERE ALIM.LT.ELIM. IF THE MAGNITUDE, BASED ON THE LEADING
        //     EXPONENTIAL, IS LESS THAN ALIM OR GREATER THAN -ALIM, THEN
        //     THE RESULT IS ON SCALE. IF NOT, THEN A REFINED TEST USING OTHER
        //     MULTIPLIERS (IN LOGARITHMIC FORM) IS MADE BASED ON ELIM. HERE
        //     EXP(-ELIM)=SMALLEST MACHINE NUMBER*1.0E+3 AND EXP(-ALIM)=
        //     EXP(-ELIM)/TOL
        //
        //     IKFLG=1 MEANS THE I SEQUENCE IS TESTED
        //          =2 MEANS THE K SEQUENCE IS TESTED
        //     NUF = 0 MEANS THE LAST MEMBER OF THE SEQUENCE IS ON SCALE
        //         =-1 MEANS AN OVERFLOW WOULD OCCUR
        //     IKFLG=1 AND NUF.GT.0 MEANS THE LAST NUF Y VALUES WERE SET TO ZERO
        //             THE FIRST N-NUF VALUES MUST BE SET BY ANOTHER ROUTINE
        //     IKFLG=2 AND NUF.EQ.N MEANS ALL Y VALUES WERE SET TO ZERO
        //     IKFLG=2 AND 0.LT.NUF.LT.N NOT CONSIDERED. Y MUST BE SET BY
        //             ANOTHER ROUTINE
        //
        //***ROUTINES CALLED  ZUCHK,ZUNHJ,ZUNIK,D1MACH,AZABS,AZLOG
        //***END PROLOGUE  ZUOIK

        zcx arg, asum, bsum, cz, phi, sum, zb, zeta1;
        zcx zeta2, zn, zr;
        double aarg, aphi, ascle, ax, ay, fnn, gnn, gnu, rcz, x, yy;
        int iform, init, nn;
        double aic = 1.265512123484645396;
        unik_work cwrk;

        int nuf = 0;
        nn = n;
        x = az_real(z);
        zr = z;
        if (x < 0.) {
            zr = -z;
        }
        zb = zr;
        yy = az_imag(zr);
        ax = az_fabs(x) * az_sqrt(3.);
        ay = az_fabs(yy);
        iform = 1;
        if (ay > ax) {
            iform = 2;
        }
        gnu = az_fmax(fnu, 1.);
        if (ikflg != 1) {
            fnn = nn;
            gnn = fnu + fnn - 1;
            gnu = az_fmax(gnn, fnn);
        }

        if (iform != 2) {
            init = 0;
            unik(zr, gnu, ikflg, 1, tol, &init, &phi, &zeta1, &zeta2, &sum, &cwrk);
            cz = -zeta1 + zeta2;
        } else {
            zn = -zr * zcx(0, 1);
            if (yy <= 0.) {
                zn.real(-zn.real());
            }
            unhj(zn, gnu, 1, tol, &phi, &arg, &zeta1, &zeta2, &asum, &bsum);
            cz = zeta2 - zeta1;
            aarg = az_abs(arg);
        }
        if (kode == 2) {
            cz -= zb;
        }
        if (ikflg == 2) {
            cz = -cz;
        }
        aphi = az_abs(phi);
        rcz = az_real(cz);

        /*  OVERFLOW TEST  */
        if (rcz > elim) {
            return -1;
        }
        if (rcz >= alim) {
            rcz += az_log(aphi);
            if (iform == 2) {
                rcz -= 0.25 * az_log(aarg) + aic;
            }
            if (rcz > elim) {
                return -1;
            }
        } else {
            /*  UNDERFLOW TEST  */
            if (rcz >= -elim) {
                if (rcz > -alim) {
                    /* pass */
                } else {
                    rcz += az_log(aphi);
                    if (iform == 2) {
                        rcz -= 0.25 * az_log(aarg) + aic;
                    }
                    if (rcz > -elim) {
                        /* goto 30 */
                        ascle = THRESHOLD_MIN / tol;
                        cz += az_log(phi);
                        if (iform != 1) {
                            cz -= 0.25 * az_log(arg) + aic;
                        }
                        ax = az_exp(rcz) / tol;
                        ay = az_imag(cz);
                        cz = ax * az_exp(ay);
                        if (uchk(cz, ascle, tol)) {
                            for (int i = 0; i < nn; i++) {
                                y[i] = 0.;
                            }
                            return nn;
                        }
                    } else {
                        for (int i = 0; i < nn; i++) {
                            y[i] = 0.;
                        }
                        return nn;
                    }
                }
            } else {
                for (int i = 0; i < nn; i++) {
                    y[i] = 0.;
                }
                return nn;
            }
        }
        if ((ikflg == 2) || (n == 1)) {
            return nuf;
        }
        /* 140 */
        while (1) {
            gnu = fnu + (nn - 1);
            if (iform != 2) {
                init = 0;
                unik(zr, gnu, ikflg, 1, tol, &init, &phi, &zeta1, &zeta2, &sum, &cwrk);
                cz = zeta2 - zeta1;
            } else {
                unhj(zn, gnu, 1, tol, &phi, &arg, &zeta1, &zeta2, &asum, &bsum);
                cz = zeta2 - zeta1;
                aarg = az_abs(phi);
            }
            if (kode == 2) {
                cz -= zb;
            }

            /* 170 */
            aphi = az_abs(phi);
            rcz = az_real(cz);

            if (rcz >= -elim) {
                if (rcz > -alim) {
                    return nuf;
                }
                rcz += az_log(aphi);
                if (iform == 2) {
                    rcz -= 0.25 * az_log(aarg) + aic;
                }
                if (rcz > -elim) {
                    ascle = THRESHOLD_MIN / tol;
                    cz += az_log(phi);
                    if (iform != 1) {
                        cz -= 0.25 * az_log(arg) + aic;
                    }
                    ax = az_exp(rcz) / tol;
                    ay = az_imag(cz);
                    cz = ax * (az_cos(ay) + az_sin(ay) * zcx(0, 1));
                    if (!(uchk(cz, ascle, tol))) {
                        return nuf;
                    }
                }
            }

            y[nn - 1] = 0.;
            nn -= 1;
            nuf += 1;
            if (nn == 0) {
                return nuf;
            }
        }
        return -1;
    }

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

    CSF_NOINLINE int unk1(
        zcx z, double fnu, int kode, int mr, int n, zcx *y, double tol, double elim,
        double alim
    ) {

        //***BEGIN PROLOGUE  ZUNK1
        //***REFER TO  ZBESK
        //
        //     ZUNK1 COMPUTES K(FNU,Z) AND ITS ANALYTIC CONTINUATION FROM THE
        //     RIGHT HALF PLANE TO THE LEFT HALF PLANE BY MEANS OF THE
        //     UNIFORM ASYMPTOTIC EXPANSION.
        //     MR INDICATES THE DIRECTION OF ROTATION FOR ANALYTIC CONTINUATION.
        //     NZ=-1 MEANS AN OVERFLOW WILL OCCUR
        //
        //***ROUTINES CALLED  ZKSCL,ZS1S2,ZUCHK,ZUNIK,D1MACH,AZABS
        //***END PROLOGUE  ZUNK1

        zcx cfn, ck, crsc, cs, cscl, csgn, cspn, c1, c2, rz, s1, s2, zr, phid, zeta1d = 0.0,
                                                                                                zeta2d = 0.0, sumd;
        double ang, aphi, asc, ascle, c2i, c2m, c2r, fmr, fn, fnf, rs1, sgn, x;
        int i, ib, iflag = 0, ifn, il, inu, iuf, k, kdflg, kflag, kk, m, nw, nz, j, jc, ipard, initd = 0, ic;

        cscl = 1.0 / tol;
        crsc = tol;
        unik_work cwrk[3];
        zcx phi[2] = {0.0};
        zcx sum[2] = {0.0};
        zcx zeta1[2] = {0.0};
        zcx zeta2[2] = {0.0};
        zcx cy[2] = {0.0};
        int init[2] = {0};

        kdflg = 1;
        kflag = 1;
        fn = fnu;
        nz = 0;
        x = az_real(z);
        zr = z;
        if (x < 0.0) {
            zr = -z;
        }
        j = 2;
        for (i = 1; i < (n + 1); i++) {
            j = 3 - j;  /* j flip flops between 1, 2 */
            jc = j - 1; /* dummy index for 0-indexing */
            fn = fnu + (i - 1);
            init[jc] = 0;
            unik(zr, fn, 2, 0, tol, &init[jc], &phi[jc], &zeta1[jc], &zeta2[jc], &sum[jc], &cwrk[jc]);
            if (kode != 1) {
                cfn = fn;
                s1 = zeta1[jc] - cfn * (cfn / (zr + zeta2[jc]));
            } else {
                s1 = zeta1[jc] - zeta2[jc];
            }
            //
            // TEST FOR UNDERFLOW AND OVERFLOW
            //
            rs1 = az_real(s1);
            if (az_fabs(rs1) <= elim) {
                if (kdflg == 1) {
                    kflag = 2;
                }
                if (az_fabs(rs1) >= alim) {
                    //
                    // REFINE TEST AND SCALE
                    //
                    aphi = az_abs(phi[jc]);
                    rs1 += az_log(aphi);
                    if (az_fabs(rs1) > elim) {
                        goto L10;
                    }
                    if (kdflg == 1) {
                        kflag = 1;
                    }
                    if (rs1 >= 0.0) {
                        if (kdflg == 1) {
                            kflag = 3;
                        }
                    }
                }

                //
                // SCALE S1 TO KEEP INTERMEDIATE ARITHMETIC ON SCALE NEAR
                // EXPONENT EXTREMES
                //
                s2 = phi[jc] * sum[jc];
                c2r = az_real(s1);
                c2i = az_imag(s1);
                c2m = az_exp(c2r) * az_real(sel3z(kflag - 1, cscl, 1.0, crsc));
                s1 = c2m * zcx(az_cos(c2i), az_sin(c2i));
                s2 *= s1;
                if (!((kflag == 1) && (uchk(s2, sel3(0, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308), tol)))) {
                    cy[kdflg - 1] = s2;
                    y[i - 1] = s2 * sel3z(kflag - 1, crsc, 1.0, cscl);
                    if (kdflg == 2) {
                        break;
                    }
                    kdflg = 2;
                    continue;
                }
            }
        L10:
            if (rs1 > 0.0) {
                return -1;
            }
            if (x < 0.0) {
                return -1;
            }
            kdflg = 1;
            y[i - 1] = 0.0;
            nz += 1;
            if (i > 1) {
                if (y[i - 2] != 0.0) {
                    y[i - 2] = 0.0;
                    nz += 1;
                }
            }
        }
        /* Check for exhausted loop */
        if (i == (n + 1)) {
            i = n;
        }

        rz = 2.0 / zr;
        ck = fn * rz;
        ib = i + 1;
        if (n >= ib) {
            //
            // TEST LAST MEMBER FOR UNDERFLOW AND OVERFLOW, SET SEQUENCE TO ZERO
            // ON UNDERFLOW
            //
            fn = fnu + (n - 1);
            ipard = 1;
            if (mr != 0) {
                ipard = 0;
            }
            initd = 0;
            unik(zr, fn, 2, ipard, tol, &initd, &phid, &zeta1d, &zeta2d, &sumd, &cwrk[2]);
            if (kode != 1) {
                cfn = fn;
                s1 = zeta1d - cfn * (cfn / (zr + zeta2d));
            } else {
                s1 = zeta1d - zeta2d;
            }
            rs1 = az_real(s1);
            if (az_fabs(rs1) <= elim) {
                if (az_fabs(rs1) < alim) {
                    goto L50;
                }
                //
                // REFINE ESTIMATE AND TEST
                //
                aphi = az_abs(phid);
                rs1 += az_log(aphi);
                if (az_fabs(rs1) < elim) {
                    goto L50;
                }
            }
            if (rs1 > 0.0) {
                return -1;
            }
            //
            // FOR X < 0.0, THE I FUNCTION TO BE ADDED WILL OVERFLOW
            //
            if (x < 0.0) {
                return -1;
            }
            nz = n;
            for (i = 0; i < n; i++) {
                y[i] = 0.0;
            }
            return nz;
        L50:
            //
            // RECUR FORWARD FOR REMAINDER OF THE SEQUENCE
            //
            s1 = cy[0];
            s2 = cy[1];
            c1 = sel3z(kflag - 1, crsc, 1.0, cscl);
            ascle = sel3(kflag - 1, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308);
            for (i = ib; i < (n + 1); i++) {
                c2 = s2;
                s2 = ck * s2 + s1;
                s1 = c2;
                ck += rz;
                c2 = s2 * c1;
                y[i - 1] = c2;
                if (kflag < 3) {
                    c2m = az_fmax(az_fabs(az_real(c2)), az_fabs(az_imag(c2)));
                    if (c2m > ascle) {
                        kflag += 1;
                        ascle = sel3(kflag - 1, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308);
                        s1 *= c1;
                        s2 = c2;
                        s1 *= sel3z(kflag - 1, cscl, 1.0, crsc);
                        s2 *= sel3z(kflag - 1, cscl, 1.0, crsc);
                        c1 = sel3z(kflag - 1, crsc, 1.0, cscl);
                    }
                }
            }
        }
        if (mr == 0) {
            return nz;
        }
        //
        // ANALYTIC CONTINUATION FOR RE(Z) < 0.0
        //
        nz = 0;
        fmr = mr;
        sgn = (fmr < 0.0 ? k_pi : -k_pi);
        //
        // CSPN AND CSGN ARE COEFF OF K AND I FUNCIONS RESP.
        //
        csgn = zcx(0.0, sgn);
        inu = (int)fnu;
        fnf = fnu - inu;
        ifn = inu + n - 1;
        ang = fnf * sgn;
        cspn = zcx(az_cos(ang), az_sin(ang));
        if (ifn % 2 == 1) {
            cspn = -cspn;
        }
        asc = sel3(0, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308);
        kk = n;
        iuf = 0;
        kdflg = 1;
        ib -= 1;
        ic = ib - 1;
        k = 1;
        for (k = 1; k < (n + 1); k++) {
            fn = fnu + (kk - 1);
            //
            // LOGIC TO SORT OUT CASES WHOSE PARAMETERS WERE SET FOR THE K
            // FUNCTION ABOVE
            //
            m = 3;
            if (n > 2) {
                goto L80;
            }
        L70:
            initd = init[j - 1];
            phid = phi[j - 1];
            zeta1d = zeta1[j - 1];
            zeta2d = zeta2[j - 1];
            sumd = sum[j - 1];
            m = j;
            j = 3 - j;
            goto L90;
        L80:
            if (!((kk == n) && (ib < n))) {
                if ((kk == ib) || (kk == ic)) {
                    goto L70;
                }
                initd = 0;
            }
        L90:
            unik(zr, fn, 1, 0, tol, &initd, &phid, &zeta1d, &zeta2d, &sumd, &cwrk[m - 1]);
            if (kode != 1) {
                cfn = fn;
                s1 = -zeta1d + cfn * (cfn / (zr + zeta2d));
            } else {
                s1 = -zeta1d + zeta2d;
            }
            //
            // TEST FOR UNDERFLOW AND OVERFLOW
            //
            rs1 = az_real(s1);
            if (az_fabs(rs1) > elim) {
                goto L110;
            }
            if (kdflg == 1) {
                iflag = 2;
            }
            if (az_fabs(rs1) >= alim) {
                //
                // REFINE TEST AND SCALE
                //
                aphi = az_abs(phid);
                rs1 += az_log(aphi);
                if (az_fabs(rs1) > elim) {
                    goto L110;
                }
                if (kdflg == 1) {
                    iflag = 1;
                }
                if (rs1 >= 0.0) {
                    if (kdflg == 1) {
                        iflag = 3;
                    }
                }
            }

            s2 = csgn * phid * sumd;
            c2r = az_real(s1);
            c2i = az_imag(s1);
            c2m = az_exp(c2r) * az_real(sel3z(iflag - 1, cscl, 1.0, crsc));
            s1 = c2m * zcx(az_cos(c2i), az_sin(c2i));
            s2 *= s1;
            if (iflag == 1) {
                if (uchk(s2, sel3(0, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308), tol)) {
                    s2 = 0.0;
                }
            }
        L100:
            cy[kdflg - 1] = s2;
            c2 = s2;
            s2 *= sel3z(iflag - 1, crsc, 1.0, cscl);
            //
            // ADD I AND K FUNCTIONS, K SEQUENCE IN Y(I), I=1,N
            //
            s1 = y[kk - 1];
            if (kode != 1) {
                nw = s1s2(zr, &s1, &s2, asc, alim, &iuf);
                nz += nw;
            }
            y[kk - 1] = s1 * cspn + s2;
            kk -= 1;
            cspn = -cspn;
            if (c2 == 0.0) {
                kdflg = 1;
                continue;
            }
            if (kdflg == 2) {
                goto L130;
            }
            kdflg = 2;
            continue;
        L110:
            if (rs1 > 0.0) {
                return -1;
            }
            s2 = 0.0;
            goto L100;
        }
        /* If loop is exhausted */
        if (k == n + 1) {
            k -= 1;
        }
    L130:
        il = n - k;
        if (il == 0) {
            return nz;
        };
        s1 = cy[0];
        s2 = cy[1];
        cs = sel3z(iflag - 1, crsc, 1.0, cscl);
        ascle = sel3(iflag - 1, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308);
        fn = inu + il;
        for (i = 1; i < (il + 1); i++) {
            c2 = s2;
            s2 = s1 + (fn + fnf) * rz * s2;
            s1 = c2;
            fn -= 1.0;
            c2 = s2 * cs;
            ck = c2;
            c1 = y[kk - 1];
            if (kode != 1) {
                nw = s1s2(zr, &c1, &c2, asc, alim, &iuf);
                nz = nz + nw;
            }
            y[kk - 1] = c1 * cspn + c2;
            kk -= 1;
            cspn = -cspn;
            if (iflag < 3) {
                c2m = az_fmax(az_fabs(az_real(c2)), az_fabs(az_imag(c2)));
                if (c2m > ascle) {
                    iflag += 1;
                    ascle = sel3(iflag - 1, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308);
                    s1 *= cs;
                    s2 = ck;
                    s1 *= sel3z(iflag - 1, cscl, 1.0, crsc);
                    s2 *= sel3z(iflag - 1, cscl, 1.0, crsc);
                    cs = sel3z(iflag - 1, crsc, 1.0, cscl);
                }
            }
        }
        return nz;
    }

    CSF_NOINLINE int unk2(
        zcx z, double fnu, int kode, int mr, int n, zcx *y, double tol, double elim,
        double alim
    ) {

        //***BEGIN PROLOGUE  ZUNK2
        //***REFER TO  ZBESK
        //
        //     ZUNK2 COMPUTES K(FNU,Z) AND ITS ANALYTIC CONTINUATION FROM THE
        //     RIGHT HALF PLANE TO THE LEFT HALF PLANE BY MEANS OF THE
        //     UNIFORM ASYMPTOTIC EXPANSIONS FOR H(KIND,FNU,ZN) AND J(FNU,ZN)
        //     WHERE ZN IS IN THE RIGHT HALF PLANE, KIND=(3-MR)/2, MR=+1 OR
        //     -1. HERE ZN=ZR*I OR -ZR*I WHERE ZR=Z IF Z IS IN THE RIGHT
        //     HALF PLANE OR ZR=-Z IF Z IS IN THE LEFT HALF PLANE. MR INDIC-
        //     ATES THE DIRECTION OF ROTATION FOR ANALYTIC CONTINUATION.
        //     NZ=-1 MEANS AN OVERFLOW WILL OCCUR
        //
        //***ROUTINES CALLED  ZAIRY,ZKSCL,ZS1S2,ZUCHK,ZUNHJ,D1MACH,AZABS
        //***END PROLOGUE  ZUNK2

        zcx ai, cfn, ck, cs, csgn, cspn, c1, c2, dai, rz, s1, s2, zb, zn, zr, phid, argd, zeta1d,
            zeta2d, asumd, bsumd;
        double aarg, ang, aphi, asc, ascle, car, cpn, c2i, c2m, c2r, crsc, cscl, fmr, fn, fnf, rs1, sar, sgn, spn, x,
            yy;
        int i, ib, iflag = 0, ifn, il, in, inu, iuf, k, kdflg, kflag, kk, nai, ndai, nw, nz, idum, j, ipard, ic;

        zcx cr1 = zcx(1.0, 1.73205080756887729);      /*   1 + sqrt(3)i  */
        zcx cr2 = zcx(-0.5, -8.66025403784438647e-1); /*      0.5 cr1    */
        double aic = 1.26551212348464539;                                               /* log(2 sqrt(pi)) */
        cscl = 1.0 / tol;
        crsc = tol;
        zcx phi[2] = {0.0};
        zcx arg[2] = {0.0};
        zcx zeta1[2] = {0.0};
        zcx zeta2[2] = {0.0};
        zcx asum[2] = {0.0};
        zcx bsum[2] = {0.0};
        zcx cy[2] = {0.0};

        kdflg = 1;
        kflag = 1;
        fn = fnu;
        nz = 0;
        //
        // EXP(-ALIM)=EXP(-ELIM)/TOL=APPROX. ONE PRECISION GREATER THAN
        // THE UNDERFLOW LIMIT
        //
        x = az_real(z);
        zr = z;
        if (x < 0.0) {
            zr = -z;
        }
        yy = az_imag(zr);
        zn = -zr * zcx(0, 1);
        zb = zr;
        inu = (int)fnu;
        fnf = fnu - inu;
        ang = -k_pi_2 * fnf;
        car = az_cos(ang);
        sar = az_sin(ang);
        cpn = k_pi_2 * car;
        spn = k_pi_2 * sar;
        c2 = zcx(spn, -cpn);
        kk = (inu % 4) + 1;
        cs = cr1 * c2 * mipow(kk - 1);
        if (yy <= 0.0) {
            zn = az_conj(-zn);
            zb = az_conj(zb);
        }
        //
        // K(FNU,Z) IS COMPUTED FROM H(2,FNU,-I*Z) WHERE Z IS IN THE FIRST
        // QUADRANT.  FOURTH QUADRANT VALUES (YY <= 0.0_dp) ARE COMPUTED BY
        // CONJUGATION SINCE THE K FUNCTION IS REAL ON THE POSITIVE REAL AXIS
        //
        j = 2;
        for (i = 1; i < (n + 1); i++) {
            j = 3 - j;
            fn = fnu + (i - 1);
            unhj(zn, fn, 0, tol, &phi[j - 1], &arg[j - 1], &zeta1[j - 1], &zeta2[j - 1], &asum[j - 1], &bsum[j - 1]);
            if (kode != 1) {
                cfn = fn;
                s1 = zeta1[j - 1] - cfn * (cfn / (zb + zeta2[j - 1]));
            } else {
                s1 = zeta1[j - 1] - zeta2[j - 1];
            }
            //
            // TEST FOR UNDERFLOW AND OVERFLOW
            //
            rs1 = az_real(s1);
            if (az_fabs(rs1) <= elim) {
                if (kdflg == 1) {
                    kflag = 2;
                }
                if (az_fabs(rs1) >= alim) {
                    //
                    // REFINE TEST AND SCALE
                    //
                    aphi = az_abs(phi[j - 1]);
                    aarg = az_abs(arg[j - 1]);
                    rs1 += az_log(aphi) - 0.25 * az_log(aarg) - aic;
                    if (az_fabs(rs1) > elim) {
                        /* GO TO 70 */
                        if (rs1 > 0.0) {
                            return -1;
                        }
                        /* FOR X < 0.0, THE I FUNCTION TO BE ADDED WILL OVERFLOW */
                        if (x < 0.0) {
                            return -1;
                        }
                        kdflg = 1;
                        y[i - 1] = 0.0;
                        cs *= -zcx(0, 1);
                        nz += 1;
                        if (i != 1) {
                            if (y[i - 2] != 0.0) {
                                y[i - 2] = 0.0;
                                nz += 1;
                            }
                        }
                        continue;
                    }
                    if (kdflg == 1) {
                        kflag = 1;
                    }
                    if (rs1 >= 0.0) {
                        if (kdflg == 1) {
                            kflag = 3;
                        }
                    }
                }
                //
                // SCALE S1 TO KEEP INTERMEDIATE ARITHMETIC ON SCALE NEAR
                // EXPONENT EXTREMES
                //
                c2 = arg[j - 1] * cr2;
                ai = airy(c2, 0, 2, &nai, &idum);
                dai = airy(c2, 1, 2, &ndai, &idum);
                s2 = cs * phi[j - 1] * (ai * asum[j - 1] + cr2 * dai * bsum[j - 1]);
                c2r = az_real(s1);
                c2i = az_imag(s1);
                c2m = az_exp(c2r) * az_real(sel3z(kflag - 1, cscl, 1.0, crsc));
                s1 = c2m * zcx(az_cos(c2i), az_sin(c2i));
                s2 *= s1;
                if (kflag == 1) {
                    if (uchk(s2, sel3(0, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308), tol)) {
                        /* GO TO 70 */
                        if (rs1 > 0.0) {
                            return -1;
                        }
                        /* FOR X < 0.0, THE I FUNCTION TO BE ADDED WILL OVERFLOW */
                        if (x < 0.0) {
                            return -1;
                        }
                        kdflg = 1;
                        y[i - 1] = 0.0;
                        cs *= -zcx(0, 1);
                        nz += 1;
                        if (i != 1) {
                            if (y[i - 2] != 0.0) {
                                y[i - 2] = 0.0;
                                nz += 1;
                            }
                        }
                        continue;
                    }
                }
                if (yy <= 0.0) {
                    s2 = az_conj(s2);
                }
                cy[kdflg - 1] = s2;
                y[i - 1] = s2 * sel3z(kflag - 1, crsc, 1.0, cscl);
                cs *= -zcx(0, 1);
                if (kdflg == 2) {
                    break;
                }
                kdflg = 2;
                continue;
            }
            /* GO TO 70 */
            if (rs1 > 0.0) {
                return -1;
            }
            /* FOR X < 0.0, THE I FUNCTION TO BE ADDED WILL OVERFLOW */
            if (x < 0.0) {
                return -1;
            }
            kdflg = 1;
            y[i - 1] = 0.0;
            cs *= -zcx(0, 1);
            nz += 1;
            if (i != 1) {
                if (y[i - 2] != 0.0) {
                    y[i - 2] = 0.0;
                    nz += 1;
                }
            }
            continue;
        }
        /* Check for exhausted loop */
        if (i == n + 1) {
            i = n;
        }

        rz = 2.0 / zr;
        ck = fn * rz;
        ib = i + 1;
        if (n >= ib) {
            fn = fnu + (n - 1);
            ipard = 1;
            if (mr != 0) {
                ipard = 0;
            }
            unhj(zn, fn, ipard, tol, &phid, &argd, &zeta1d, &zeta2d, &asumd, &bsumd);
            if (kode != 1) {
                cfn = fn;
                s1 = zeta1d - cfn * (cfn / (zb + zeta2d));
            } else {
                s1 = zeta1d - zeta2d;
            }
            rs1 = az_real(s1);
            if (az_fabs(rs1) <= elim) {
                if (az_fabs(rs1) < alim) {
                    goto L120;
                }
                //
                // REFINE ESTIMATE AND TEST
                //
                aphi = az_abs(phid);
                rs1 += az_log(aphi);
                if (az_fabs(rs1) < elim) {
                    goto L120;
                }
            }
            if (rs1 > 0.0) {
                return -1;
            }
            //
            //  FOR X < 0.0, THE I FUNCTION TO BE ADDED WILL OVERFLOW
            //
            if (x < 0.0) {
                return -1;
            }
            nz = n;
            for (i = 0; i < n; i++) {
                y[i] = 0.0;
            }
            return nz;
        L120:
            //
            // SCALED FORWARD RECURRENCE FOR REMAINDER OF THE SEQUENCE
            //
            s1 = cy[0];
            s2 = cy[1];
            c1 = sel3z(kflag - 1, crsc, 1.0, cscl);
            ascle = sel3(kflag - 1, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308);
            for (i = ib; i < (n + 1); i++) {
                c2 = s2;
                s2 = ck * s2 + s1;
                s1 = c2;
                ck += rz;
                c2 = s2 * c1;
                y[i - 1] = c2;
                if (kflag < 3) {
                    c2m = az_fmax(az_fabs(az_real(c2)), az_fabs(az_imag(c2)));
                    if (c2m > ascle) {
                        kflag += 1;
                        ascle = sel3(kflag - 1, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308);
                        s1 *= c1;
                        s2 = c2;
                        s1 *= sel3z(kflag - 1, cscl, 1.0, crsc);
                        s2 *= sel3z(kflag - 1, cscl, 1.0, crsc);
                        c1 = sel3z(kflag - 1, crsc, 1.0, cscl);
                    }
                }
            }
        }
        if (mr == 0) {
            return nz;
        }
        //
        // ANALYTIC CONTINUATION FOR RE(Z) < 0.0
        //
        nz = 0;
        fmr = mr;
        sgn = (fmr < 0.0 ? k_pi : -k_pi);
        //
        // CSPN AND CSGN ARE COEFF OF K AND I FUNCTIONS RESP.
        //
        csgn = zcx(0.0, sgn);
        if (yy <= 0.0) {
            csgn = -csgn;
        }
        ifn = inu + n - 1;
        ang = fnf * sgn;
        cspn = zcx(az_cos(ang), az_sin(ang));
        if (ifn % 2 == 1) {
            cspn = -cspn;
        }
        //
        // CS=COEFF OF THE J FUNCTION TO GET THE I FUNCTION.  I(FNU,Z) IS
        // COMPUTED FROM EXP(I*FNU*HPI)*J(FNU,-I*Z) WHERE Z IS IN THE FIRST
        // QUADRANT.  FOURTH QUADRANT VALUES (YY <= 0.0_dp) ARE COMPUTED BY
        // CONJUGATION SINCE THE I FUNCTION IS REAL ON THE POSITIVE REAL AXIS
        //
        cs = zcx(car, -sar) * csgn;
        in = (ifn % 4) + 1;
        c2 = mipow(in - 1);
        cs *= az_conj(c2);
        asc = sel3(0, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308);
        iuf = 0;
        kk = n;
        kdflg = 1;
        ib -= 1;
        ic = ib - 1;
        for (k = 1; k < (n + 1); k++) {
            fn = fnu + (kk - 1);
            if (n > 2) {
                goto L175;
            }
        L172:
            phid = phi[j - 1];
            argd = arg[j - 1];
            zeta1d = zeta1[j - 1];
            zeta2d = zeta2[j - 1];
            asumd = asum[j - 1];
            bsumd = bsum[j - 1];
            j = 3 - j;
            goto L210;
        L175:
            if (!((kk == n) && (ib < n))) {
                if ((kk == ib) || (kk == ic)) {
                    goto L172;
                }
                unhj(zn, fn, 0, tol, &phid, &argd, &zeta1d, &zeta2d, &asumd, &bsumd);
            }
        L210:
            if (kode != 1) {
                cfn = fn;
                s1 = -zeta1d + cfn * (cfn / (zb + zeta2d));
            } else {
                s1 = -zeta1d + zeta2d;
            }
            //
            // TEST FOR UNDERFLOW AND OVERFLOW
            //
            rs1 = az_real(s1);
            if (az_fabs(rs1) > elim) {
                if (rs1 > 0.0) {
                    return -1;
                }
                s2 = 0.0;
                goto L250;
            }
            if (kdflg == 1) {
                iflag = 2;
            }
            if (az_fabs(rs1) >= alim) {
                //
                // REFINE  TEST AND SCALE
                //
                aphi = az_abs(phid);
                aarg = az_abs(argd);
                rs1 += az_log(aphi) - 0.25f * az_log(aarg) - aic;
                if (az_fabs(rs1) > elim) {
                    if (rs1 > 0.0) {
                        return -1;
                    }
                    s2 = 0.0;
                    goto L250;
                }
                if (kdflg == 1) {
                    iflag = 1;
                }
                if (rs1 >= 0.0) {
                    if (kdflg == 1) {
                        iflag = 3;
                    }
                }
            }

            ai = airy(argd, 0, 2, &nai, &idum);
            dai = airy(argd, 1, 2, &ndai, &idum);
            s2 = cs * phid * (ai * asumd + dai * bsumd);
            c2r = az_real(s1);
            c2i = az_imag(s1);
            c2m = az_exp(c2r) * az_real(sel3z(iflag - 1, cscl, 1.0, crsc));
            s1 = c2m * zcx(az_cos(c2i), az_sin(c2i));
            s2 *= s1;
            if (iflag == 1) {
                if (uchk(s2, sel3(0, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308), tol)) {
                    s2 = 0.0;
                }
            }
        L250:
            if (yy <= 0.0) {
                s2 = az_conj(s2);
            }
            cy[kdflg - 1] = s2;
            c2 = s2;
            s2 *= sel3z(iflag - 1, crsc, 1.0, cscl);
            //
            // ADD I AND K FUNCTIONS, K SEQUENCE IN Y(I), I=1,N
            //
            s1 = y[kk - 1];
            if (kode != 1) {
                nw = s1s2(zr, &s1, &s2, asc, alim, &iuf);
                nz += nw;
            }
            y[kk - 1] = s1 * cspn + s2;
            kk -= 1;
            cspn = -cspn;
            cs *= -zcx(0, 1);
            if (c2 == 0.0) {
                kdflg = 1;
                continue;
            }
            if (kdflg == 2) {
                break;
            }
            kdflg = 2;
            continue;
        }
        /* Check for exhausted loop */
        if (k == n + 1) {
            k = n;
        }

        il = n - k;
        if (il == 0) {
            return nz;
        }
        //
        // RECUR BACKWARD FOR REMAINDER OF I SEQUENCE AND ADD IN THE
        // K FUNCTIONS, SCALING THE I SEQUENCE DURING RECURRENCE TO KEEP
        // INTERMEDIATE ARITHMETIC ON SCALE NEAR EXPONENT EXTREMES.
        //
        s1 = cy[0];
        s2 = cy[1];
        cs = sel3z(iflag - 1, crsc, 1.0, cscl);
        ascle = sel3(iflag - 1, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308);
        fn = inu + il;
        for (i = 1; i < (il + 1); i++) {
            c2 = s2;
            s2 = s1 + (fn + fnf) * rz * c2;
            s1 = c2;
            fn -= 1.0;
            c2 = s2 * cs;
            ck = c2;
            c1 = y[kk - 1];
            if (kode != 1) {
                nw = s1s2(zr, &c1, &c2, asc, alim, &iuf);
                nz = nz + nw;
            }
            y[kk - 1] = c1 * cspn + c2;
            kk -= 1;
            cspn = -cspn;
            if (iflag < 3) {
                c2m = az_fmax(az_fabs(az_real(ck)), az_fabs(az_imag(ck)));
                if (c2m > ascle) {
                    iflag += 1;
                    ascle = sel3(iflag - 1, THRESHOLD_MIN / tol, tol / THRESHOLD_MIN, 1.7976931348623157e+308);
                    s1 *= cs;
                    s2 = ck;
                    s1 *= sel3z(iflag - 1, cscl, 1.0, crsc);
                    s2 *= sel3z(iflag - 1, cscl, 1.0, crsc);
                    cs = sel3z(iflag - 1, crsc, 1.0, cscl);
                }
            }
        }
        return nz;
    }

    CSF_NOINLINE int buni(
        zcx z, double fnu, int kode, int n, zcx *y, int nui, int *nlast, double fnul,
        double tol, double elim, double alim
    ) {

        //***BEGIN PROLOGUE  ZBUNI
        //***REFER TO  ZBESI,ZBESK
        //
        //     ZBUNI COMPUTES THE I BESSEL FUNCTION FOR LARGE CABS(Z).GT.
        //     FNUL AND FNU+N-1.LT.FNUL. THE ORDER IS INCREASED FROM
        //     FNU+N-1 GREATER THAN FNUL BY ADDING NUI AND COMPUTING
        //     ACCORDING TO THE UNIFORM ASYMPTOTIC EXPANSION FOR I(FNU,Z)
        //     ON IFORM=1 AND THE EXPANSION FOR J(FNU,Z) ON IFORM=2
        //
        //***ROUTINES CALLED  ZUNI1,ZUNI2,AZABS,D1MACH
        //***END PROLOGUE  ZBUNI

        zcx cscl, cscr, rz, st, s1, s2;
        double ax, ay, dfnu, fnui, gnu, xx, yy, ascle, str, sti, stm;
        int i, iflag, iform, k, nl, nw, nz;
        zcx cy[2] = {0.0};
        double bry[3] = {0.0};

        nz = 0;
        xx = az_real(z);
        yy = az_imag(z);
        ax = az_fabs(xx) * az_sqrt(3.);
        ay = az_fabs(yy);
        iform = 1;
        if (ay > ax) {
            iform = 2;
        }
        if (nui == 0) {
            if (iform != 2) {
                uni1(z, fnu, kode, n, y, &nw, nlast, fnul, tol, elim, alim);
            } else {
                uni2(z, fnu, kode, n, y, &nw, nlast, fnul, tol, elim, alim);
            }
            if (nw < 0) {
                nz = -1;
                if (nw == -2) {
                    nz = -2;
                }
                return nz;
            }
            return nw;
        }

        fnui = nui;
        dfnu = fnu + (n - 1);
        gnu = dfnu + fnui;
        if (iform != 2) {
            //
            // ASYMPTOTIC EXPANSION FOR I(FNU,Z) FOR LARGE FNU APPLIED IN
            // -PI/3 <= ARG(Z) <= PI/3
            //
            uni1(z, gnu, kode, 2, cy, &nw, nlast, fnul, tol, elim, alim);
        } else {
            uni2(z, gnu, kode, 2, cy, &nw, nlast, fnul, tol, elim, alim);
        }
        if (nw >= 0) {
            if (nw != 0) {
                *nlast = n;
                return nz;
            }
            ay = az_abs(cy[0]);
            //
            // SCALE BACKWARD RECURRENCE, BRY(3) IS DEFINED BUT NEVER USED
            //
            bry[0] = THRESHOLD_MIN / tol;
            bry[1] = tol / THRESHOLD_MIN;
            bry[2] = bry[1];
            iflag = 2;
            ascle = bry[1];
            ax = 1.0;
            cscl = ax;
            if (ay <= bry[0]) {
                iflag = 1;
                ascle = bry[0];
                ax = 1.0 / tol;
                cscl = ax;
            } else {
                if (ay >= bry[1]) {
                    iflag = 3;
                    ascle = bry[2];
                    ax = tol;
                    cscl = ax;
                }
            }
            ay = 1.0 / ax;
            cscr = ay;
            s1 = cy[1] * cscl;
            s2 = cy[0] * cscl;
            rz = 2.0 / z;
            for (i = 1; i < (nui + 1); i++) {
                st = s2;
                s2 = (dfnu + fnui) * rz * st + s1;
                s1 = st;
                fnui -= 1.0;
                if (iflag < 3) {
                    st = s2 * cscr;
                    str = az_fabs(az_real(st));
                    sti = az_fabs(az_imag(st));
                    stm = az_fmax(str, sti);
                    if (stm > ascle) {
                        iflag += 1;
                        ascle = bry[iflag - 1];
                        s1 *= cscr;
                        s2 = st;
                        ax *= tol;
                        ay = 1.0 / ax;
                        cscl = ax;
                        cscr = ay;
                        s1 *= cscl;
                        s2 *= cscl;
                    }
                }
            }
            y[n - 1] = s2 * cscr;
            if (n == 1) {
                return nz;
            }
            nl = n - 1;
            fnui = nl;
            k = nl;
            for (i = 0; i < nl; i++) {
                st = s2;
                s2 = (fnu + fnui) * rz * s2 + s1;
                s1 = st;
                st = s2 * cscr;
                y[k - 1] = st;
                fnui -= 1.0;
                k -= 1;
                if (iflag < 3) {
                    st = s2 * cscr;
                    str = az_fabs(az_real(st));
                    sti = az_fabs(az_imag(st));
                    stm = az_fmax(str, sti);
                    if (stm > ascle) {
                        iflag += 1;
                        ascle = bry[iflag - 1];
                        s1 *= cscr;
                        s2 = st;
                        ax *= tol;
                        ay = 1.0 / ax;
                        cscl = ax;
                        cscr = ay;
                        s1 *= cscl;
                        s2 *= cscl;
                    }
                }
            }
            return nz;
        }
        nz = -1;
        if (nw == -2) {
            nz = -2;
        }
        return nz;
    }

    CSF_NOINLINE int bunk(
        zcx z, double fnu, int kode, int mr, int n, zcx *y, double tol, double elim,
        double alim
    ) {

        //***BEGIN PROLOGUE  ZBUNK
        //***REFER TO  ZBESK,ZBESH
        //
        //     ZBUNK COMPUTES THE K BESSEL FUNCTION FOR FNU.GT.FNUL.
        //     ACCORDING TO THE UNIFORM ASYMPTOTIC EXPANSION FOR K(FNU,Z)
        //     IN ZUNK1 AND THE EXPANSION FOR H(2,FNU,Z) IN ZUNK2
        //
        //***ROUTINES CALLED  ZUNK1,ZUNK2
        //***END PROLOGUE  ZBUNK

        double ax, ay;

        int nz = 0;
        ax = az_fabs(az_real(z)) * 1.7321;
        ay = az_fabs(az_imag(z));

        if (ay <= ax) {
            //
            // Asymptotic expansion for K(FNU,Z) for large FNU applied in
            // -PI/3 <= ARG(Z) <= PI/3
            //
            nz = unk1(z, fnu, kode, mr, n, y, tol, elim, alim);
        } else {
            //
            // Asymptotic expansion for H(2, FNU, Z*EXP(M*HPI)) for large FNU
            // applied in PI/3 < ABS(ARG(Z)) <= PI/2 where M = +I or -I and HPI = PI/2
            //
            nz = unk2(z, fnu, kode, mr, n, y, tol, elim, alim);
        }
        return nz;
    }

}  // namespace amos
}  // namespace cuarray_special
#endif
