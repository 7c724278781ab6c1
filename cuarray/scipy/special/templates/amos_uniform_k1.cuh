// AMOS (amos_core.cuh says what and whence): K for large order by the uniform asymptotic
// expansion in terms of e^(zeta) (unk1), with its analytic continuation.
#ifndef CUARRAY_SPECIAL_AMOS_UNIFORM_K1_CUH
#define CUARRAY_SPECIAL_AMOS_UNIFORM_K1_CUH
namespace cuarray_special {
namespace amos {

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

}  // namespace amos
}  // namespace cuarray_special
#endif
