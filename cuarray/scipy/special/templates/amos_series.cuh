// AMOS (amos_core.cuh says what and whence): the power series (seri), Miller's backward
// recurrence normalised by the Neumann series (mlri) or by the Wronskian (wrsk, with the ratios of
// rati), the asymptotic expansion for large |z| (asyi), K and its successor by Temme's series /
// Miller's algorithm (bknu), log Gamma (gamln), and the scaling helpers (kscl, s1s2, uchk).
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
