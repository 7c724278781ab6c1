// AMOS (amos_core.cuh says what and whence): K for large order by the uniform asymptotic
// expansion in terms of Airy functions (unk2), and the drivers of the uniform expansions for
// I (buni) and K (bunk).
#ifndef CUARRAY_SPECIAL_AMOS_UNIFORM_K2_CUH
#define CUARRAY_SPECIAL_AMOS_UNIFORM_K2_CUH
namespace cuarray_special {
namespace amos {

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
