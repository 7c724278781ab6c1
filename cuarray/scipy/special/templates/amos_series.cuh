// AMOS (amos_core.cuh says what and whence): log Gamma (gamln), the scaling helpers (uchk,
// s1s2, kscl), the ratios of I (rati) and the power series (seri). The methods for I built on
// them are in amos_i_methods.cuh, K's series in amos_bknu.cuh.
#ifndef CUARRAY_SPECIAL_AMOS_SERIES_CUH
#define CUARRAY_SPECIAL_AMOS_SERIES_CUH
namespace cuarray_special {
namespace amos {

    CSF_NOINLINE double gamln(double z) {

        //***BEGIN PROLOGUE  DGAMLN
        //***DATE WRITTEN   830501   (YYMMDD)
        //***REVISION DATE  830501   (YYMMDD)
        //***CATEGORY NO.  B5F
        //***KEYWORDS  GAMMA FUNCTION,LOGARITHM OF GAMMA FUNCTION
        //***AUTHOR  AMOS, DONALD E., SANDIA NATIONAL LABORATORIES
        //***PURPOSE  TO COMPUTE THE LOGARITHM OF THE GAMMA FUNCTION
        //***DESCRIPTION
        //
        //               **** A DOUBLE PRECISION ROUTINE ****
        //         DGAMLN COMPUTES THE NATURAL LOG OF THE GAMMA FUNCTION FOR
        //         Z.GT.0.  THE ASYMPTOTIC EXPANSION IS USED TO GENERATE VALUES
        //         GREATER THAN ZMIN WHICH ARE ADJUSTED BY THE RECURSION
        //         G(Z+1)=Z*G(Z) FOR Z.LE.ZMIN.  THE FUNCTION WAS MADE AS
        //         PORTABLE AS POSSIBLE BY COMPUTIMG ZMIN FROM THE NUMBER OF BASE
        //         10 DIGITS IN A WORD, RLN=AMAX1(-ALOG10(R1MACH(4)),0.5E-18)
        //         LIMITED TO 18 DIGITS OF (RELATIVE) ACCURACY.
        //
        //         SINCE INTEGER ARGUMENTS ARE COMMON, A TABLE LOOK UP ON 100
        //         VALUES IS USED FOR SPEED OF EXECUTION.
        //
        //     DESCRIPTION OF ARGUMENTS
        //
        //         INPUT      Z IS D0UBLE PRECISION
        //           Z      - ARGUMENT, Z.GT.0.0D0
        //
        //         OUTPUT      DGAMLN IS DOUBLE PRECISION
        //           DGAMLN  - NATURAL LOG OF THE GAMMA FUNCTION AT Z.NE.0.0D0
        //           IERR    - ERROR FLAG
        //                     IERR=0, NORMAL RETURN, COMPUTATION COMPLETED
        //                     IERR=1, Z.LE.0.0D0,    NO COMPUTATION
        //
        //
        //***REFERENCES  COMPUTATION OF BESSEL FUNCTIONS OF COMPLEX ARGUMENT
        //                 BY D. E. AMOS, SAND83-0083, MAY, 1983.
        //***ROUTINES CALLED  I1MACH,D1MACH
        //***END PROLOGUE  DGAMLN

        int i1m, mz;
        double fln, fz, rln, s, tlg, trm, tst, t1, wdtol, zdmy, zinc, zm, zmin, zp, zsq;
        const double con = 1.83787706640934548; /* LN(2*PI) */
        int nz = 0;
        if (z > 0.0) {
            if (z <= 101.0) {
                nz = (int)z;
                fz = z - nz;
                if (fz <= 0.0) {
                    if (nz <= 100) {
                        return dgamln_gln[nz - 1];
                    }
                }
            }
            wdtol = RTOL_MIN;
            i1m = 53;
            rln = LOG10_2 * i1m;
            fln = az_fmax(az_fmin(rln, 20.), 3.0) - 3.0;
            zm = 1.8 + 0.3875 * fln;
            mz = ((int)zm) + 1;
            zmin = mz;
            zdmy = z;
            zinc = 0.0;
            if (z < zmin) {
                zinc = zmin - nz;
                zdmy = z + zinc;
            }
            zp = 1. / zdmy;
            t1 = dgamln_cf[0] * zp;
            s = t1;
            if (zp >= wdtol) {
                zsq = zp * zp;
                tst = t1 * wdtol;
                for (int i = 2; i < 23; i++) {
                    zp *= zsq;
                    trm = dgamln_cf[i - 1] * zp;
                    if (az_fabs(trm) < tst) {
                        break;
                    }
                    s += trm;
                }
            }

            if (zinc == 0.) {
                tlg = az_log(z);
                return z * (tlg - 1.0) + 0.5 * (con - tlg) + s;
            }
            zp = 1.0;
            nz = (int)zinc;
            for (int i = 0; i < nz; i++) {
                zp *= (z + i);
            }
            tlg = az_log(zdmy);
            return zdmy * (tlg - 1.0) - az_log(zp) + 0.5 * (con - tlg) + s;
        }
        // Zero or negative argument
        return lim<double>::nan();
    }

    CSF_NOINLINE int uchk(zcx y, double ascle, double tol) {

        //***BEGIN PROLOGUE  ZUCHK
        //***REFER TO ZSERI,ZUOIK,ZUNK1,ZUNK2,ZUNI1,ZUNI2,ZKSCL
        //
        //      Y ENTERS AS A SCALED QUANTITY WHOSE MAGNITUDE IS GREATER THAN
        //      EXP(-ALIM)=ASCLE=1.0E+3*D1MACH(1)/TOL. THE TEST IS MADE TO SEE
        //      IF THE MAGNITUDE OF THE REAL OR IMAGINARY PART WOULD UNDERFLOW
        //      WHEN Y IS SCALED (BY TOL) TO ITS PROPER VALUE. Y IS ACCEPTED
        //      IF THE UNDERFLOW IS AT LEAST ONE PRECISION BELOW THE MAGNITUDE
        //      OF THE LARGEST COMPONENT; OTHERWISE THE PHASE ANGLE DOES NOT HAVE
        //      ABSOLUTE ACCURACY AND AN UNDERFLOW IS ASSUMED.
        //
        //***ROUTINES CALLED  (NONE)
        //***END PROLOGUE  ZUCHK

        double yr = az_fabs(az_real(y));
        double yi = az_fabs(az_imag(y));
        double ss = az_fmax(yr, yi);
        double st = az_fmin(yr, yi);
        if (st > ascle) {
            return 0;
        } else {
            st /= tol;
            if (ss < st) {
                return 1;
            } else {
                return 0;
            }
        }
    }

    CSF_NOINLINE int s1s2(
        zcx zr, zcx *s1, zcx *s2, double ascle, double alim, int *iuf
    ) {

        //***BEGIN PROLOGUE  ZS1S2
        //***REFER TO  ZBESK,ZAIRY
        //
        //     ZS1S2 TESTS FOR A POSSIBLE UNDERFLOW RESULTING FROM THE
        //     ADDITION OF THE I AND K FUNCTIONS IN THE ANALYTIC CON-
        //     TINUATION FORMULA WHERE S1=K FUNCTION AND S2=I FUNCTION.
        //     ON KODE=1 THE I AND K FUNCTIONS ARE DIFFERENT ORDERS OF
        //     MAGNITUDE, BUT FOR KODE=2 THEY CAN BE OF THE SAME ORDER
        //     OF MAGNITUDE AND THE MAXIMUM MUST BE AT LEAST ONE
        //     PRECISION ABOVE THE UNDERFLOW LIMIT.
        //
        //***ROUTINES CALLED  AZABS,AZEXP,AZLOG
        //***END PROLOGUE  ZS1S2

        zcx c1, s1d;
        double aa, aln, as1, as2, xx;
        int nz = 0;
        as1 = az_abs(*s1);
        as2 = az_abs(*s2);
        aa = az_real(*s1);
        aln = az_imag(*s1);

        if ((aa != 0.) || (aln != 0.)) {
            if (as1 != 0.) {
                xx = az_real(zr);
                aln = -xx - xx + az_log(as1);
                s1d = *s1;
                *s1 = 0.;
                as1 = 0.;
                if (aln >= -alim) {
                    c1 = az_log(s1d) - zr - zr;
                    *s1 = az_exp(c1);
                    as1 = az_abs(*s1);
                    *iuf += 1;
                }
            }
        }
        aa = az_fmax(as1, as2);
        if (aa > ascle) {
            return nz;
        }
        *s1 = 0.;
        *s2 = 0.;
        *iuf = 0;
        return 1;
    }

    CSF_NOINLINE int kscl(
        zcx zr, double fnu, int n, zcx *y, zcx rz, double *ascle,
        double tol, double elim
    ) {

        //***BEGIN PROLOGUE  ZKSCL
        //***REFER TO  ZBESK
        //
        //     SET K FUNCTIONS TO ZERO ON UNDERFLOW, CONTINUE RECURRENCE
        //     ON SCALED FUNCTIONS UNTIL TWO MEMBERS COME ON SCALE, THEN
        //     RETURN WITH MIN(NZ+2,N) VALUES SCALED BY 1/TOL.
        //
        //***ROUTINES CALLED  ZUCHK,AZABS,AZLOG
        //***END PROLOGUE  ZKSCL

        zcx cy[2] = {0.};
        double as, acs, alas, fn, zri, xx;
        zcx s1, s2, cs, ck, zd;
        int nz = 0;
        int ic = 0;
        int nn = (n > 2 ? 2 : n);
        int kk = 0;
        int i;
        double elm = az_exp(-elim);
        xx = az_real(zr);

        for (i = 1; i < (nn + 1); i++) {
            s1 = y[i - 1];
            cy[i - 1] = s1;
            as = az_abs(s1);
            acs = -az_real(zr) + az_log(as);
            nz += 1;
            y[i - 1] = 0.;
            if (acs < -elim) {
                continue;
            }
            cs = -zr + az_log(s1);
            cs = (az_exp(az_real(cs)) / tol) *
                 zcx(az_cos(az_imag(cs)), az_sin(az_imag(cs)));
            if (!uchk(cs, *ascle, tol)) {
                y[i - 1] = cs;
                nz -= 1;
                ic = i;
            }
        }
        if (n == 1) {
            return nz;
        }
        if (ic <= 1) {
            y[0] = 0.;
            nz = 2;
        }
        if (n == 2) {
            return nz;
        }
        if (nz == 0) {
            return nz;
        }

        fn = fnu + 1.;
        ck = fn * rz;
        s1 = cy[0];
        s2 = cy[1];
        zri = az_imag(zr);
        zd = zr;
        for (i = 3; i < (n + 1); i++) {
            kk = i;
            cs = s2;
            s2 *= ck;
            s2 += s1;
            s1 = cs;
            ck += rz;
            as = az_abs(s2);
            alas = az_log(as);
            acs = alas - xx;
            nz += 1;
            y[i - 1] = 0.;
            if (acs >= -elim) {
                cs = az_log(s2);
                cs -= zd;
                cs = (az_exp(az_real(cs)) / tol) *
                     zcx(az_cos(az_imag(cs)), az_sin(az_imag(cs)));
                if (!uchk(cs, *ascle, tol)) {
                    y[i - 1] = cs;
                    nz -= 1;
                    if (ic == kk - 1) {
                        nz = kk - 2;
                        for (int i = 0; i < nz; i++) {
                            y[i] = 0.;
                        }
                        return nz;
                    }
                    ic = kk;
                    continue;
                }
            }
            if (alas >= 0.5 * elim) {
                xx -= elim;
                zd = zcx(xx, zri);
                s1 *= elm;
                s2 *= elm;
            }
        }
        nz = n;
        if (ic == n) {
            nz = n - 1;
        }

        for (int i = 0; i < nz; i++) {
            y[i] = 0.;
        }
        return nz;
    }

    CSF_NOINLINE void rati(zcx z, double fnu, int n, zcx *cy, double tol) {

        //***BEGIN PROLOGUE  ZRATI
        //***REFER TO  ZBESI,ZBESK,ZBESH
        //
        //     ZRATI COMPUTES RATIOS OF I BESSEL FUNCTIONS BY BACKWARD
        //     RECURRENCE.  THE STARTING INDEX IS DETERMINED BY FORWARD
        //     RECURRENCE AS DESCRIBED IN J. RES. OF NAT. BUR. OF STANDARDS-B,
        //     MATHEMATICAL SCIENCES, VOL 77B, P111-114, SEPTEMBER, 1973,
        //     BESSEL FUNCTIONS I AND J OF COMPLEX ARGUMENT AND INTEGER ORDER,
        //     BY D. J. SOOKNE.
        //
        //***ROUTINES CALLED  AZABS,ZDIV
        //***END PROLOGUE  ZRATI

        zcx cdfnu, pt, p1, p2, rz, t1;
        double ak, amagz, ap1, ap2, arg, az, dfnu, fdnu, flam, fnup, rap1, rho, test, test1;
        int i, id, idnu, inu, itime, k, kk, magz;

        az = az_abs(z);
        inu = (int)fnu;
        idnu = inu + n - 1;
        fdnu = idnu;
        magz = az;
        amagz = magz + 1;
        fnup = az_fmax(amagz, fdnu);
        id = idnu - magz - 1;
        itime = 1;
        k = 1;
        rz = 2.0 / z;
        t1 = fnup * rz;
        p2 = -t1;
        p1 = 1.0;
        t1 += rz;
        if (id > 0) {
            id = 0;
        }
        ap2 = az_abs(p2);
        ap1 = az_abs(p1);

        //
        // THE OVERFLOW TEST ON K(FNU+I-1,Z) BEFORE THE CALL TO CBKNX
        // GUARANTEES THAT P2 IS ON SCALE. SCALE TEST1 AND ALL SUBSEQUENT P2
        // VALUES BY AP1 TO ENSURE THAT AN OVERFLOW DOES NOT OCCUR PREMATURELY.
        //
        arg = (ap2 + ap2) / (ap1 * tol);
        test1 = az_sqrt(arg);
        test = test1;
        rap1 = 1.0 / ap1;
        p1 *= rap1;
        p2 *= rap1;
        ap2 *= rap1;

        while (1) {
            k += 1;
            ap1 = ap2;
            pt = p2;
            p2 = p1 - t1 * p2;
            p1 = pt;
            t1 += rz;
            ap2 = az_abs(p2);
            if (ap1 > test) {
                break;
            }
            if (itime != 2) {
                ak = az_abs(t1) * 0.5;
                flam = ak + az_sqrt(ak * ak - 1.0);
                rho = az_fmin(ap2 / ap1, flam);
                test = test1 * az_sqrt(rho / (rho * rho - 1.0));
                itime = 2;
            }
        }
        kk = k + 1 - id;
        ak = kk;
        dfnu = fnu + n - 1;
        cdfnu = dfnu;
        t1 = ak;
        p1 = 1.0 / ap2;
        p2 = 0.0;

        for (i = 1; i < (kk + 1); i++) {
            pt = p1;
            p1 = rz * (cdfnu + t1) * p1 + p2;
            p2 = pt;
            t1 -= 1.0;
        }

        if (p1 == 0.) {
            p1 = zcx(tol, tol);
        }

        cy[n - 1] = p2 / p1;
        if (n == 1) {
            return;
        }
        k = n - 1;
        ak = k;
        t1 = ak;
        cdfnu = fnu * rz;

        for (i = 2; i < (n + 1); i++) {
            pt = cdfnu + t1 * rz + cy[k];
            if (pt == 0.0) {
                pt = zcx(tol, tol);
            }
            cy[k - 1] = 1.0 / pt;
            t1 -= 1.0;
            k -= 1;
        }
        return;
    }

    CSF_NOINLINE int seri(
        zcx z, double fnu, int kode, int n, zcx *y, double tol, double elim,
        double alim
    ) {

        //***BEGIN PROLOGUE  ZSERI
        //***REFER TO  ZBESI,ZBESK
        //
        //     ZSERI COMPUTES THE I BESSEL FUNCTION FOR REAL(Z).GE.0.0 BY
        //     MEANS OF THE POWER SERIES FOR LARGE CABS(Z) IN THE
        //     REGION CABS(Z).LE.2*SQRT(FNU+1). NZ=0 IS A NORMAL RETURN.
        //     NZ.GT.0 MEANS THAT THE LAST NZ COMPONENTS WERE SET TO ZERO
        //     DUE TO UNDERFLOW. NZ.LT.0 MEANS UNDERFLOW OCCURRED, BUT THE
        //     CONDITION CABS(Z).LE.2*SQRT(FNU+1) WAS VIOLATED AND THE
        //     COMPUTATION MUST BE COMPLETED IN ANOTHER ROUTINE WITH N=N-ABS(NZ).
        //
        //***ROUTINES CALLED  DGAMLN,D1MACH,ZUCHK,AZABS,ZDIV,AZLOG,ZMLT
        //***END PROLOGUE  ZSERI

        zcx ak1, ck, coef, crsc, cz, half_z, rz, s1, s2, w[2];
        double aa, acz, ak, arm, ascle, atol, az, dfnu, fnup, rak1, rs, rtr1, s, ss, x;
        int ib, iflag, il, k, m, nn;

        int nz = 0;
        az = az_abs(z);
        if (az == 0.0) {
            y[0] = 0.0;
            if (fnu == 0.) {
                y[0] = 1.0;
            }
            if (n == 1) {
                return nz;
            }
            for (int i = 1; i < n; i++) {
                y[i] = 0.0;
            }
            return nz;
        }
        x = az_real(z);
        arm = THRESHOLD_MIN;
        rtr1 = az_sqrt(arm);
        crsc = 1.0;
        iflag = 0;
        if (az >= arm) {
            half_z = 0.5 * z;
            cz = 0.0;
            if (az > rtr1) {
                cz = half_z * half_z;
            }
            acz = az_abs(cz);
            nn = n;
            ck = az_log(half_z);
        L10:
            dfnu = fnu + (nn - 1);
            fnup = dfnu + 1.0;
            //
            // UNDERFLOW TEST
            //
            ak1 = ck * dfnu;
            ak = gamln(fnup);
            ak1 -= ak;
            if (kode == 2) {
                ak1 -= x;
            }
            rak1 = az_real(ak1);
            if (rak1 > -elim) {
                goto L30;
            }
        L20:
            nz += 1;
            y[nn - 1] = 0.0;
            //
            // RETURN WITH NZ < 0 IF ABS(Z*Z/4) > FNU+N-NZ-1 COMPLETE
            // THE CALCULATION IN CBINU WITH N=N-ABS(NZ)
            //
            if (acz > dfnu) {
                return -nz;
            }
            nn -= 1;
            if (nn == 0) {
                return nz;
            }
            goto L10;
        L30:
            if (rak1 <= -alim) {
                iflag = 1;
                ss = 1.0 / tol;
                crsc = tol;
                ascle = arm * ss;
            }
            ak = az_imag(ak1);
            aa = az_exp(rak1);
            if (iflag == 1) {
                aa *= ss;
            }
            coef = aa * zcx(az_cos(ak), az_sin(ak));
            atol = tol * acz / fnup;
            il = (nn > 2 ? 2 : nn);
            for (int i = 1; i < (il + 1); i++) {
                dfnu = fnu + (nn - i);
                fnup = dfnu + 1.0;
                s1 = 1.0;
                if (acz >= tol * fnup) {
                    ak1 = 1.0;
                    ak = fnup + 2.0;
                    s = fnup;
                    aa = 2.0;
                    while (1) {
                        rs = 1.0 / s;
                        ak1 *= cz;
                        ak1 *= rs;
                        s1 += ak1;
                        s += ak;
                        ak += 2.0;
                        aa *= acz;
                        aa *= rs;
                        if (aa <= atol) {
                            break;
                        }
                    }
                }
                s2 = s1 * coef;
                w[i - 1] = s2;
                if (iflag != 0) {
                    if (uchk(s2, ascle, tol)) {
                        goto L20;
                    }
                }
                m = nn - i + 1;
                y[m - 1] = s2 * crsc;
                if (i != il) {
                    coef *= dfnu / half_z;
                }
            }
            if (nn <= 2) {
                return nz;
            }
            k = nn - 2;
            ak = k;
            rz = 2.0 / z;
            if (iflag == 1) {
                goto L80;
            }
            ib = 3;
        L60:
            for (int i = ib; i < (nn + 1); i++) {
                y[k - 1] = (ak + fnu) * rz * y[k] + y[k + 1];
                ak -= 1.0;
                k -= 1;
            }
            return nz;
        L80:
            //
            // RECUR BACKWARD WITH SCALED VALUES
            //
            //
            // EXP(-ALIM)=EXP(-ELIM)/TOL=APPROX. ONE PRECISION ABOVE THE
            // UNDERFLOW LIMIT = ASCLE = D1MACH(1)*SS*1000
            //
            s1 = w[0];
            s2 = w[1];
            int l;
            for (l = 3; l < (nn + 1); l++) {
                ck = s2;
                s2 = s1 + (ak + fnu) * rz * s2;
                s1 = ck;
                ck = s2 * crsc;
                y[k - 1] = ck;
                ak -= 1.0;
                k -= 1;
                if (az_abs(ck) > ascle) {
                    goto L100;
                }
            }
            return nz;
        L100:
            ib = l + 1;
            if (ib > nn) {
                return nz;
            }
            goto L60;
        }
        nz = n;
        if (fnu == 0.0) {
            nz -= 1;
        }
        y[0] = 0.0;
        if (fnu == 0.) {
            y[0] = 1.0;
        }
        if (n == 1) {
            return nz;
        }
        for (int i = 1; i < n; i++) {
            y[i] = 0.0;
        }
        return nz;
    }

}  // namespace amos
}  // namespace cuarray_special
#endif
