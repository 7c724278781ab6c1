// AMOS (amos_core.cuh says what and whence): the uniform asymptotic expansions' parameters for
// large order, Olver's in terms of Airy functions (unhj) and of e^(zeta) (unik), and the
// overflow/underflow test (uoik). I by them: amos_uniform_i.cuh; K: amos_uniform_k1.cuh,
// amos_uniform_k2.cuh (with the drivers buni and bunk).
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

}  // namespace amos
}  // namespace cuarray_special
#endif
