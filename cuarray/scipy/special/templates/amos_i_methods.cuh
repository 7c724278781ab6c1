// AMOS (amos_core.cuh says what and whence): I by Miller's backward recurrence normalised by
// the Neumann series (mlri), the asymptotic expansion for large |z| (asyi), and the recurrence
// normalised by the Wronskian with K (wrsk, with rati's ratios).
#ifndef CUARRAY_SPECIAL_AMOS_I_METHODS_CUH
#define CUARRAY_SPECIAL_AMOS_I_METHODS_CUH
namespace cuarray_special {
namespace amos {

    CSF_NOINLINE int mlri(zcx z, double fnu, int kode, int n, zcx *y, double tol) {

        //***BEGIN PROLOGUE  ZMLRI
        //***REFER TO  ZBESI,ZBESK
        //
        //     ZMLRI COMPUTES THE I BESSEL FUNCTION FOR RE(Z).GE.0.0 BY THE
        //     MILLER ALGORITHM NORMALIZED BY A NEUMANN SERIES.
        //
        //***ROUTINES CALLED  DGAMLN,D1MACH,AZABS,AZEXP,AZLOG,ZMLT
        //***END PROLOGUE  ZMLRI

        zcx ck, cnorm, pt, p1, p2, rz, sum;
        double ack, ak, ap, at, az, bk, fkap, fkk, flam, fnf, rho, rho2, scle, tfnf, tst, x;
        int i, iaz, ifnu, inu, itime, k, kk, km, m, nz;
        scle = 2.2250738585072014e-308 / tol;
        nz = 0;
        az = az_abs(z);
        x = az_real(z);
        iaz = (int)az;
        ifnu = (int)fnu;
        inu = ifnu + n - 1;
        at = iaz + 1;
        ck = at / z;
        rz = 2. / z;
        p1 = 0.;
        p2 = 1.;
        ack = (at + 1.0) / az;
        rho = ack + az_sqrt(ack * ack - 1.);
        rho2 = rho * rho;
        tst = (rho2 + rho2) / ((rho2 - 1.0) * (rho - 1.0));
        tst /= tol;
        //
        // COMPUTE RELATIVE TRUNCATION ERROR INDEX FOR SERIES
        //
        ak = at;
        i = 1;
        for (i = 1; i < 81; i++) {
            pt = p2;
            p2 = p1 - ck * p2;
            p1 = pt;
            ck += rz;
            ap = az_abs(p2);
            if (ap > tst * ak * ak) {
                break;
            }
            ak += 1.0;
            if (i == 80) {
                /* Exhausted loop without break */
                return -2;
            }
        }
        i += 1;
        k = 0;
        if (inu >= iaz) {
            //
            // COMPUTE RELATIVE TRUNCATION ERROR FOR RATIOS
            //
            p1 = 0.0;
            p2 = 1.0;
            at = inu + 1;
            ck = at / z;
            ack = at / az;
            tst = az_sqrt(ack / tol);
            itime = 1;
            k = 1;
            for (k = 1; k < 81; k++) {
                pt = p2;
                p2 = p1 - ck * p2;
                p1 = pt;
                ck += rz;
                ap = az_abs(p2);
                if (ap >= tst) {
                    if (itime == 2) {
                        break;
                    }
                    ack = az_abs(ck);
                    flam = ack + az_sqrt(ack * ack - 1.0);
                    fkap = ap / az_abs(p1);
                    rho = az_fmin(flam, fkap);
                    tst *= az_sqrt(rho / (rho * rho - 1.0));
                    itime = 2;
                }
                if (k == 80) {
                    /* Exhausted loop without break */
                    return -2;
                }
            }
        }
        //
        // BACKWARD RECURRENCE AND SUM NORMALIZING RELATION
        //
        k += 1;
        kk = az_fmax(i + iaz, k + inu);
        fkk = kk;
        p1 = 0.0;
        //
        // SCALE P2 AND SUM BY SCLE
        //
        p2 = scle;
        fnf = fnu - ifnu;
        tfnf = fnf + fnf;
        bk = gamln(fkk + tfnf + 1.0) - gamln(fkk + 1.0) - gamln(tfnf + 1.0);
        bk = az_exp(bk);
        sum = 0.;
        km = kk - inu;
        for (i = 1; i < (km + 1); i++) {
            pt = p2;
            p2 = p1 + (fkk + fnf) * rz * p2;
            p1 = pt;
            ak = 1. - tfnf / (fkk + tfnf);
            ack = bk * ak;
            sum += (ack + bk) * p1;
            bk = ack;
            fkk -= 1.;
        }
        y[n - 1] = p2;
        if (n != 1) {
            for (i = 2; i < (n + 1); i++) {
                pt = p2;
                p2 = p1 + (fkk + fnf) * rz * p2;
                p1 = pt;
                ak = 1. - tfnf / (fkk + tfnf);
                ack = bk * ak;
                sum += (ack + bk) * p1;
                bk = ack;
                fkk -= 1.;
                m = n - i + 1;
                y[m - 1] = p2;
            }
        }
        if (ifnu > 0) {
            for (i = 1; i < (ifnu + 1); i++) {
                pt = p2;
                p2 = p1 + (fkk + fnf) * rz * p2;
                p1 = pt;
                ak = 1. - tfnf / (fkk + tfnf);
                ack = bk * ak;
                sum += (ack + bk) * p1;
                bk = ack;
                fkk -= 1.;
            }
        }
        pt = z;
        if (kode == 2) {
            pt -= x;
        }
        p1 = -fnf * az_log(rz) + pt;
        ap = gamln(1. + fnf);
        pt = p1 - ap;
        //
        // THE DIVISION EXP(PT)/(SUM+P2) IS ALTERED TO AVOID OVERFLOW
        // IN THE DENOMINATOR BY SQUARING LARGE QUANTITIES
        //
        p2 += sum;
        ap = az_abs(p2);
        p1 = 1. / ap;
        ck = az_exp(pt) * p1;
        pt = az_conj(p2) * p1;
        cnorm = ck * pt;
        for (int i = 0; i < n; i++) {
            y[i] *= cnorm;
        }
        return nz;
    }

    CSF_NOINLINE int asyi(
        zcx z, double fnu, int kode, int n, zcx *y, double rl, double tol,
        double elim, double alim
    ) {

        //***BEGIN PROLOGUE  ZASYI
        //***REFER TO  ZBESI,ZBESK
        //
        //     ZASYI COMPUTES THE I BESSEL FUNCTION FOR REAL(Z).GE.0.0 BY
        //     MEANS OF THE ASYMPTOTIC EXPANSION FOR LARGE CABS(Z) IN THE
        //     REGION CABS(Z).GT.MAX(RL,FNU*FNU/2). NZ=0 IS A NORMAL RETURN.
        //     NZ.LT.0 INDICATES AN OVERFLOW ON KODE=1.
        //
        //***ROUTINES CALLED  D1MACH,AZABS,ZDIV,AZEXP,ZMLT,AZSQRT
        //***END PROLOGUE  ZASYI

        zcx ak1, ck, cs1, cs2, cz, dk, ez, p1, rz, s2;
        double aa, acz, aez, ak, arg, arm, atol, az, bb, bk, dfnu;
        double dnu2, fdn, rtr1, s, sgn, sqk, x, yy;
        int ib, il, inu, j, jl, k, koded, m, nn;
        int nz = 0;
        az = az_abs(z);
        x = az_real(z);
        arm = THRESHOLD_MIN;
        rtr1 = az_sqrt(arm);
        il = (n > 2 ? 2 : n);
        dfnu = fnu + (n - il);
        // OVERFLOW TEST
        ak1 = az_sqrt((0.5 * 0.318309886183790671537767526745028724) / z);
        cz = z;
        if (kode == 2) {
            cz = zcx(0.0, az_imag(z));
        }
        acz = az_real(cz);
        if (az_fabs(acz) <= elim) {
            dnu2 = dfnu + dfnu;
            koded = 1;
            if (!((az_fabs(acz) > alim) && (n > 2))) {
                koded = 0;
                ak1 *= az_exp(cz);
            }
            fdn = 0.;
            if (dnu2 > rtr1) {
                fdn = dnu2 * dnu2;
            }
            ez = z * 8.;
            // WHEN Z IS IMAGINARY, THE ERROR TEST MUST BE MADE
            // RELATIVE TO THE FIRST RECIPROCAL POWER SINCE THIS
            // IS THE LEADING TERM OF THE EXPANSION FOR THE
            // IMAGINARY PART.
            aez = 8. * az;
            s = tol / aez;
            jl = (int)(rl + rl) + 2;
            yy = az_imag(z);
            p1 = 0.;
            if (yy != 0.) {
                inu = (int)fnu;
                arg = (fnu - inu) * k_pi;
                inu += n - il;
                ak = -az_sin(arg);
                bk = az_cos(arg);
                if (yy < 0.) {
                    bk = -bk;
                }
                p1 = zcx(ak, bk);
                if (inu % 2 == 1) {
                    p1 = -p1;
                }
            }
            for (int k = 1; k < (il + 1); k++) {
                sqk = fdn - 1.;
                atol = s * az_fabs(sqk);
                sgn = 1.;
                cs1 = 1.;
                cs2 = 1.;
                ck = 1.;
                ak = 0.;
                aa = 1.;
                bb = aez;
                dk = ez;
                j = 1;
                for (j = 1; j < (jl + 1); j++) {
                    ck *= sqk / dk;
                    cs2 += ck;
                    sgn = -sgn;
                    cs1 += ck * sgn;
                    dk += ez;
                    aa *= az_fabs(sqk) / bb;
                    bb += aez;
                    ak += 8.;
                    sqk -= ak;
                    if (aa <= atol) {
                        break;
                    }
                }
                if ((j == (jl + 1)) && (aa > atol)) {
                    return -2;
                }

                /* 50 */
                s2 = cs1;
                if (x + x < elim) {
                    s2 += p1 * cs2 * az_exp(-z - z);
                }
                fdn += 8. * dfnu + 4.;
                p1 = -p1;
                m = n - il + k;
                y[m - 1] = s2 * ak1;
            }
            if (n <= 2) {
                return nz;
            }
            nn = n;
            k = nn - 2;
            ak = k;
            rz = 2. / z;
            ib = 3;
            for (int i = ib; i < (nn + 1); i++) {
                y[k - 1] = (ak + fnu) * rz * y[k] + y[k + 1];
                ak -= 1.;
                k -= 1;
            }
            if (koded == 0) {
                return nz;
            }
            ck = az_exp(cz);
            for (int i = 0; i < nn; i++) {
                y[i] *= ck;
            }
            /* 90 */
            return nz;
        }
        /* 100 */
        return -1;
    }

    CSF_NOINLINE int wrsk(
        zcx zr, double fnu, int kode, int n, zcx *y, zcx *cw,
        double tol, double elim, double alim
    ) {

        //***BEGIN PROLOGUE  ZWRSK
        //***REFER TO  ZBESI,ZBESK
        //
        //     ZWRSK COMPUTES THE I BESSEL FUNCTION FOR RE(Z).GE.0.0 BY
        //     NORMALIZING THE I FUNCTION RATIOS FROM ZRATI BY THE WRONSKIAN
        //
        //***ROUTINES CALLED  D1MACH,ZBKNU,ZRATI,AZABS
        //***END PROLOGUE  ZWRSK

        zcx cinu, cscl, ct, c1, c2, rct, st;
        double act, acw, ascle, yy;
        int i, nw, nz;

        //
        // I(FNU+I-1,Z) BY BACKWARD RECURRENCE FOR RATIOS
        // Y(I)=I(FNU+I,Z)/I(FNU+I-1,Z) FROM CRATI NORMALIZED BY THE
        // WRONSKIAN WITH K(FNU,Z) AND K(FNU+1,Z) FROM CBKNU.
        //
        nz = 0;
        nw = bknu(zr, fnu, kode, 2, cw, tol, elim, alim);
        if (nw != 0) {
            /* 50 */
            nz = -1;
            if (nw == -2) {
                nz = -2;
            }
            return nz;
        }
        rati(zr, fnu, n, y, tol);
        //
        // RECUR FORWARD ON I(FNU+1,Z) = R(FNU,Z)*I(FNU,Z),
        // R(FNU+J-1,Z)=Y(J),  J=1,...,N
        //
        cinu = 1.0;
        if (kode != 1) {
            yy = az_imag(zr);
            cinu = zcx(az_cos(yy), az_sin(yy));
        }
        //
        // ON LOW EXPONENT MACHINES THE K FUNCTIONS CAN BE CLOSE TO BOTH THE
        // UNDER AND OVERFLOW LIMITS AND THE NORMALIZATION MUST BE SCALED TO
        // PREVENT OVER OR UNDERFLOW.  CUOIK HAS DETERMINED THAT THE RESULT
        // IS ON SCALE.
        //
        acw = az_abs(cw[1]);
        ascle = THRESHOLD_MIN / tol;
        cscl = 1.0;

        if (acw <= ascle) {
            cscl = 1.0 / tol;
        } else {
            ascle = 1.0 / ascle;
            if (acw >= ascle) {
                cscl = tol;
            }
        }

        c1 = cw[0] * cscl;
        c2 = cw[1] * cscl;
        st = y[0];
        //
        // CINU=CINU*(CONJG(CT)/ABS(CT))*(1.0_dp/ABS(CT) PREVENTS
        // UNDER- OR OVERFLOW PREMATURELY BY SQUARING ABS(CT)
        //
        ct = zr * (c2 + st * c1);
        act = az_abs(ct);
        rct = 1.0 / act;
        ct = az_conj(ct) * rct;
        cinu *= ct * rct;
        y[0] = cinu * cscl;
        if (n == 1) {
            return nz;
        }
        for (i = 2; i < (n + 1); i++) {
            cinu *= st;
            st = y[i - 1];
            y[i - 1] = cinu * cscl;
        }
        return nz;
    }

}  // namespace amos
}  // namespace cuarray_special
#endif
