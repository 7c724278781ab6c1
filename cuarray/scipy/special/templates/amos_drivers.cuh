// AMOS (amos_core.cuh says what and whence): I in the right half plane by region (binu), the
// analytic continuation of K to the left half plane (acai, acon), and the driver for H^(1,2)
// (besh). The drivers for I and J: amos_drivers_ij.cuh; K and Y: amos_drivers_ky.cuh.
#ifndef CUARRAY_SPECIAL_AMOS_DRIVERS_CUH
#define CUARRAY_SPECIAL_AMOS_DRIVERS_CUH
namespace cuarray_special {
namespace amos {

    CSF_NOINLINE int binu(
        zcx z, double fnu, int kode, int n, zcx *cy, double rl, double fnul,
        double tol, double elim, double alim
    ) {

        //***BEGIN PROLOGUE  ZBINU
        //***REFER TO  ZBESH,ZBESI,ZBESJ,ZBESK,ZAIRY,ZBIRY
        //
        //     ZBINU COMPUTES THE I FUNCTION IN THE RIGHT HALF Z PLANE
        //
        //***ROUTINES CALLED  AZABS,ZASYI,ZBUNI,ZMLRI,ZSERI,ZUOIK,ZWRSK
        //***END PROLOGUE  ZBINU

        zcx cw[2] = {0.};
        double az, dfnu;
        int inw, nlast, nn, nui, nw, nz;

        nz = 0;
        az = az_abs(z);
        nn = n;
        dfnu = fnu + n - 1;
        if ((az <= 2.) || (az * az * 0.25 <= (dfnu + 1.0))) {
            /* GOTO 10 */
            nw = seri(z, fnu, kode, nn, cy, tol, elim, alim);
            inw = az_abs(nw);
            nz += inw;
            nn -= inw;
            if (nn == 0) {
                return nz;
            }
            if (nw >= 0) {
                return nz;
            }
            dfnu = fnu + nn - 1;
        }
        /* GOTO 30 conditions*/
        //
        // ASYMPTOTIC EXPANSION FOR LARGE Z
        //
        if (az < rl) {
            /* 40 */
            if (dfnu <= 1.0) {
                /* 70 */
                //
                // MILLER ALGORITHM NORMALIZED BY THE SERIES
                //
                nw = mlri(z, fnu, kode, nn, cy, tol);
                if (nw < 0) {
                    nz = -1;
                    if (nw == -2) {
                        nz = -2;
                    }
                    return nz;
                }
                return nz;
            }
            /* GO TO 50 */
        } else {
            if ((dfnu <= 1.0) || (az + az >= dfnu * dfnu)) {
                /* 30 */
                //
                // ASYMPTOTIC EXPANSION FOR LARGE Z
                //
                nw = asyi(z, fnu, kode, nn, cy, rl, tol, elim, alim);
                if (nw < 0) {
                    nz = -1;
                    if (nw == -2) {
                        nz = -2;
                    }
                    return nz;
                }
                return nz;
            }
            /* GO TO 50 */
        }
        /* 50 */
        //
        // OVERFLOW AND UNDERFLOW TEST ON I SEQUENCE FOR MILLER ALGORITHM
        //
        nw = uoik(z, fnu, kode, 1, nn, cy, tol, elim, alim);
        if (nw < 0) {
            nz = -1;
            if (nw == -2) {
                nz = -2;
            }
            return nz;
        }
        nz += nw;
        nn -= nw;
        if (nn == 0) {
            return nz;
        }
        dfnu = fnu + (nn - 1);
        /* GOTO 110s handled here */
        if ((dfnu > fnul) || (az > fnul)) {
            //
            // INCREMENT FNU+NN-1 UP TO FNUL, COMPUTE AND RECUR BACKWARD
            //
            nui = (int)(fnul - dfnu) + 1;
            nui = (nui > 0 ? nui : 0);
            nw = buni(z, fnu, kode, nn, cy, nui, &nlast, fnul, tol, elim, alim);
            if (nw < 0) {
                nz = -1;
                if (nw == -2) {
                    nz = -2;
                }
                return nz;
            }
            nz += nw;
            if (nlast == 0) {
                return nz;
            }
            nn = nlast;
        }
        /* 60 */
        if (az <= rl) {
            /* 70 */
            nw = mlri(z, fnu, kode, nn, cy, tol);
            if (nw < 0) {
                nz = -1;
                if (nw == -2) {
                    nz = -2;
                }
                return nz;
            }
            return nz;
        }
        /* 80 */
        //
        // MILLER ALGORITHM NORMALIZED BY THE WRONSKIAN
        //
        //
        // OVERFLOW TEST ON K FUNCTIONS USED IN WRONSKIAN
        //
        nw = uoik(z, fnu, kode, 2, 2, cw, tol, elim, alim);
        if (nw < 0) {
            nz = nn;
            /* 90 */
            for (int i = 0; i < nn; i++) {
                cy[i] = 0.0;
            }
            return nz;
        }
        /* 100 */
        if (nw > 0) {
            return -1;
        }
        nw = wrsk(z, fnu, kode, nn, cy, cw, tol, elim, alim);
        if (nw < 0) {
            nz = -1;
            if (nw == -2) {
                nz = -2;
            }
            return nz;
        }
        return nz;
    }

    CSF_NOINLINE int acai(
        zcx z, double fnu, int kode, int mr, int n, zcx *y, double rl, double tol,
        double elim, double alim
    ) {

        //***BEGIN PROLOGUE  ZACAI
        //***REFER TO  ZAIRY
        //
        //     ZACAI APPLIES THE ANALYTIC CONTINUATION FORMULA
        //
        //         K(FNU,ZN*EXP(MP))=K(FNU,ZN)*EXP(-MP*FNU) - MP*I(FNU,ZN)
        //                 MP=PI*MR*zcx(0.0,1.0)
        //
        //     TO CONTINUE THE K FUNCTION FROM THE RIGHT HALF TO THE LEFT
        //     HALF Z PLANE FOR USE WITH ZAIRY WHERE FNU=1/3 OR 2/3 AND N=1.
        //     ZACAI IS THE SAME AS ZACON WITH THE PARTS FOR LARGER ORDERS AND
        //     RECURRENCE REMOVED. A RECURSIVE CALL TO ZACON CAN RESULT IF ZACON
        //     IS CALLED FROM ZAIRY.
        //
        //***ROUTINES CALLED  ZASYI,ZBKNU,ZMLRI,ZSERI,ZS1S2,D1MACH,AZABS
        //***END PROLOGUE  ZACAI

        zcx csgn, cspn, c1, c2, zn, cy[2];
        double arg, ascle, az, cpn, dfnu, fmr, sgn, spn, yy;
        int inu, iuf, nn, nw;
        int nz = 0;
        zn = -z;
        az = az_abs(z);
        nn = n;
        dfnu = fnu + (n - 1);
        if ((az > 2.0) && (az * az * 0.25 > dfnu + 1.0)) {
            /* 20 */
            if (az >= rl) {
                //
                // ASYMPTOTIC EXPANSION FOR LARGE Z FOR THE I FUNCTION
                //
                nw = asyi(zn, fnu, kode, nn, y, rl, tol, elim, alim);
            } else {
                //
                // MILLER ALGORITHM NORMALIZED BY THE SERIES FOR THE I FUNCTION
                //
                nw = mlri(zn, fnu, kode, nn, y, tol);
            }
            if (nw < 0) {
                nz = -1;
                if (nw == -2) {
                    nz = -2;
                }
                return nz;
            }
        } else {
            //
            // POWER SERIES FOR THE I FUNCTION
            //
            seri(zn, fnu, kode, nn, y, tol, elim, alim);
        }
        /* 40 */
        //
        // ANALYTIC CONTINUATION TO THE LEFT HALF PLANE FOR THE K FUNCTION
        //
        nw = bknu(zn, fnu, kode, 1, &cy[0], tol, elim, alim);
        if (nw != 0) {
            nz = -1;
            if (nw == -2) {
                nz = -2;
            }
            return nz;
        }
        fmr = mr;
        sgn = (fmr < 0.0 ? k_pi : -k_pi);
        csgn = zcx(0.0, sgn);
        if (kode != 1) {
            yy = -az_imag(zn);
            cpn = az_cos(yy);
            spn = az_sin(yy);
            csgn *= zcx(cpn, spn);
        }
        //
        // CALCULATE CSPN=EXP(FNU*PI*I) TO MINIMIZE LOSSES OF SIGNIFICANCE
        // WHEN FNU IS LARGE
        //
        inu = (int)fnu;
        arg = (fnu - inu) * sgn;
        cpn = az_cos(arg);
        spn = az_sin(arg);
        cspn = zcx(cpn, spn);
        if (inu % 2 == 1) {
            cspn = -cspn;
        }
        c1 = cy[0];
        c2 = y[0];
        if (kode != 1) {
            iuf = 0;
            ascle = THRESHOLD_MIN / tol;
            nw = s1s2(zn, &c1, &c2, ascle, alim, &iuf);
            nz += nw;
        }
        y[0] = cspn * c1 + csgn * c2;
        return nz;
    }

    CSF_NOINLINE int acon(
        zcx z, double fnu, int kode, int mr, int n, zcx *y, double rl, double fnul,
        double tol, double elim, double alim
    ) {

        //***BEGIN PROLOGUE  ZACON
        //***REFER TO  ZBESK,ZBESH
        //
        //     ZACON APPLIES THE ANALYTIC CONTINUATION FORMULA
        //
        //         K(FNU,ZN*EXP(MP))=K(FNU,ZN)*EXP(-MP*FNU) - MP*I(FNU,ZN)
        //                 MP=PI*MR*zcx(0.0,1.0)
        //
        //     TO CONTINUE THE K FUNCTION FROM THE RIGHT HALF TO THE LEFT
        //     HALF Z PLANE
        //
        //***ROUTINES CALLED  ZBINU,ZBKNU,ZS1S2,D1MACH,AZABS,ZMLT
        //***END PROLOGUE  ZACON

        zcx ck, cs, cscl, cscr, csgn, cspn, c1, c2, rz, sc1, sc2 = 0.0, st, s1, s2, zn;
        double arg, ascle, as2, bscle, c1i, c1m, c1r, fmr, sgn, yy;
        int i, inu, iuf, kflag, nn, nw, nz;
        zcx cy[2] = {0.0};

        nz = 0;
        zn = -z;
        nn = n;
        nw = binu(zn, fnu, kode, nn, y, rl, fnul, tol, elim, alim);
        if (nw >= 0) {
            //
            // ANALYTIC CONTINUATION TO THE LEFT HALF PLANE FOR THE K FUNCTION
            //
            nn = (n > 2 ? 2 : n);
            nw = bknu(zn, fnu, kode, nn, cy, tol, elim, alim);
            if (nw == 0) {
                s1 = cy[0];
                fmr = mr;
                sgn = (fmr < 0 ? k_pi : -k_pi);
                csgn = zcx(0.0, sgn);
                if (kode != 1) {
                    yy = -az_imag(zn);
                    csgn *= zcx(az_cos(yy), az_sin(yy));
                }
                inu = (int)fnu;
                arg = (fnu - inu) * sgn;
                cspn = zcx(az_cos(arg), az_sin(arg));
                if (inu % 2 == 1) {
                    cspn = -cspn;
                }
                iuf = 0;
                c1 = s1;
                c2 = y[0];
                ascle = THRESHOLD_MIN / tol;
                if (kode != 1) {
                    nw = s1s2(zn, &c1, &c2, ascle, alim, &iuf);
                    nz += nw;
                    sc1 = c1;
                }
                y[0] = cspn * c1 + csgn * c2;
                if (n == 1) {
                    return nz;
                }
                cspn = -cspn;
                s2 = cy[1];
                c1 = s2;
                c2 = y[1];
                if (kode != 1) {
                    nw = s1s2(zn, &c1, &c2, ascle, alim, &iuf);
                    nz += nw;
                    sc2 = c1;
                }
                y[1] = cspn * c1 + csgn * c2;
                if (n == 2) {
                    return nz;
                }
                cspn = -cspn;
                rz = 2.0 / zn;
                ck = (fnu + 1.0) * rz;
                //
                // SCALE NEAR EXPONENT EXTREMES DURING RECURRENCE ON K FUNCTIONS
                //
                cscl = 1.0 / tol;
                cscr = tol;
                as2 = az_abs(s2);
                kflag = 2;
                if (as2 <= sel3(0, ascle, 1.0 / ascle, 1.7976931348623157e+308)) {
                    kflag = 1;
                } else {
                    if (as2 >= sel3(1, ascle, 1.0 / ascle, 1.7976931348623157e+308)) {
                        kflag = 3;
                    }
                }
                bscle = sel3(kflag - 1, ascle, 1.0 / ascle, 1.7976931348623157e+308);
                s1 *= sel3z(kflag - 1, cscl, 1.0, cscr);
                s2 *= sel3z(kflag - 1, cscl, 1.0, cscr);
                cs = sel3z(kflag - 1, cscr, 1.0, cscl);
                for (i = 3; i < (n + 1); i++) {
                    st = s2;
                    s2 = ck * s2 + s1;
                    s1 = st;
                    c1 = s2 * cs;
                    st = c1;
                    c2 = y[i - 1];
                    if (kode != 1) {
                        if (iuf >= 0) {
                            nw = s1s2(zn, &c1, &c2, ascle, alim, &iuf);
                            nz += nw;
                            sc1 = sc2;
                            sc2 = c1;
                            if (iuf == 3) {
                                iuf = -4;
                                s1 = sc1 * sel3z(kflag - 1, cscl, 1.0, cscr);
                                s2 = sc2 * sel3z(kflag - 1, cscl, 1.0, cscr);
                                st = sc2;
                            }
                        }
                    }
                    y[i - 1] = cspn * c1 + csgn * c2;
                    ck += rz;
                    cspn = -cspn;
                    if (kflag < 3) {
                        c1r = az_fabs(az_real(c1));
                        c1i = az_fabs(az_imag(c1));
                        c1m = az_fmax(c1r, c1i);
                        if (c1m > bscle) {
                            kflag += 1;
                            bscle = sel3(kflag - 1, ascle, 1.0 / ascle, 1.7976931348623157e+308);
                            s1 *= cs;
                            s2 = st;
                            s1 *= sel3z(kflag - 1, cscl, 1.0, cscr);
                            s2 *= sel3z(kflag - 1, cscl, 1.0, cscr);
                            cs = sel3z(kflag - 1, cscr, 1.0, cscl);
                        }
                    }
                }
                return nz;
            }
        }
        nz = -1;
        if (nw == -2) {
            nz = -2;
        }
        return nz;
    }

    CSF_NOINLINE int besh(zcx z, double fnu, int kode, int m, int n, zcx *cy, int *ierr) {

        //***BEGIN PROLOGUE  ZBESH
        //***DATE WRITTEN   830501   (YYMMDD)
        //***REVISION DATE  890801   (YYMMDD)
        //***CATEGORY NO.  B5K
        //***KEYWORDS  H-BESSEL FUNCTIONS,BESSEL FUNCTIONS OF COMPLEX ARGUMENT,
        //             BESSEL FUNCTIONS OF THIRD KIND,HANKEL FUNCTIONS
        //***AUTHOR  AMOS, DONALD E., SANDIA NATIONAL LABORATORIES
        //***PURPOSE  TO COMPUTE THE H-BESSEL FUNCTIONS OF A COMPLEX ARGUMENT
        //***DESCRIPTION
        //
        //                      ***A DOUBLE PRECISION ROUTINE***
        //         ON KODE=1, ZBESH COMPUTES AN N MEMBER SEQUENCE OF COMPLEX
        //         HANKEL (BESSEL) FUNCTIONS CY(J)=H(M,FNU+J-1,Z) FOR KINDS M=1
        //         OR 2, REAL, NONNEGATIVE ORDERS FNU+J-1, J=1,...,N, AND COMPLEX
        //         Z.NE.zcx(0.0,0.0) IN THE CUT PLANE -PI.LT.ARG(Z).LE.PI.
        //         ON KODE=2, ZBESH RETURNS THE SCALED HANKEL FUNCTIONS
        //
        //         CY(I)=EXP(-MM*Z*I)*H(M,FNU+J-1,Z)       MM=3-2*M,   I**2=-1.
        //
        //         WHICH REMOVES THE EXPONENTIAL BEHAVIOR IN BOTH THE UPPER AND
        //         LOWER HALF PLANES. DEFINITIONS AND NOTATION ARE FOUND IN THE
        //         NBS HANDBOOK OF MATHEMATICAL FUNCTIONS (REF. 1).
        //
        //         INPUT      ZR,ZI,FNU ARE DOUBLE PRECISION
        //           ZR,ZI  - Z=zcx(ZR,ZI), Z.NE.zcx(0.0D0,0.0D0),
        //                    -PT.LT.ARG(Z).LE.PI
        //           FNU    - ORDER OF INITIAL H FUNCTION, FNU.GE.0.0D0
        //           KODE   - A PARAMETER TO INDICATE THE SCALING OPTION
        //                    KODE= 1  RETURNS
        //                             CY(J)=H(M,FNU+J-1,Z),   J=1,...,N
        //                        = 2  RETURNS
        //                             CY(J)=H(M,FNU+J-1,Z)*EXP(-I*Z*(3-2M))
        //                                  J=1,...,N  ,  I**2=-1
        //           M      - KIND OF HANKEL FUNCTION, M=1 OR 2
        //           N      - NUMBER OF MEMBERS IN THE SEQUENCE, N.GE.1
        //
        //         OUTPUT     CYR,CYI ARE DOUBLE PRECISION
        //           CYR,CYI- DOUBLE PRECISION VECTORS WHOSE FIRST N COMPONENTS
        //                    CONTAIN REAL AND IMAGINARY PARTS FOR THE SEQUENCE
        //                    CY(J)=H(M,FNU+J-1,Z)  OR
        //                    CY(J)=H(M,FNU+J-1,Z)*EXP(-I*Z*(3-2M))  J=1,...,N
        //                    DEPENDING ON KODE, I**2=-1.
        //           NZ     - NUMBER OF COMPONENTS SET TO ZERO DUE TO UNDERFLOW,
        //                    NZ= 0   , NORMAL RETURN
        //                    NZ.GT.0 , FIRST NZ COMPONENTS OF CY SET TO ZERO DUE
        //                              TO UNDERFLOW, CY(J)=zcx(0.0D0,0.0D0)
        //                              J=1,...,NZ WHEN Y.GT.0.0 AND M=1 OR
        //                              Y.LT.0.0 AND M=2. FOR THE COMPLMENTARY
        //                              HALF PLANES, NZ STATES ONLY THE NUMBER
        //                              OF UNDERFLOWS.
        //           IERR   - ERROR FLAG
        //                    IERR=0, NORMAL RETURN - COMPUTATION COMPLETED
        //                    IERR=1, INPUT ERROR   - NO COMPUTATION
        //                    IERR=2, OVERFLOW      - NO COMPUTATION, FNU TOO
        //                            LARGE OR CABS(Z) TOO SMALL OR BOTH
        //                    IERR=3, CABS(Z) OR FNU+N-1 LARGE - COMPUTATION DONE
        //                            BUT LOSSES OF SIGNIFCANCE BY ARGUMENT
        //                            REDUCTION PRODUCE LESS THAN HALF OF MACHINE
        //                            ACCURACY
        //                    IERR=4, CABS(Z) OR FNU+N-1 TOO LARGE - NO COMPUTA-
        //                            TION BECAUSE OF COMPLETE LOSSES OF SIGNIFI-
        //                            CANCE BY ARGUMENT REDUCTION
        //                    IERR=5, ERROR              - NO COMPUTATION,
        //                            ALGORITHM TERMINATION CONDITION NOT MET
        //
        //***LONG DESCRIPTION
        //
        //         THE COMPUTATION IS CARRIED OUT BY THE RELATION
        //
        //         H(M,FNU,Z)=(1/MP)*EXP(-MP*FNU)*K(FNU,Z*EXP(-MP))
        //             MP=MM*HPI*I,  MM=3-2*M,  HPI=PI/2,  I**2=-1
        //
        //         FOR M=1 OR 2 WHERE THE K BESSEL FUNCTION IS COMPUTED FOR THE
        //         RIGHT HALF PLANE RE(Z).GE.0.0. THE K FUNCTION IS CONTINUED
        //         TO THE LEFT HALF PLANE BY THE RELATION
        //
        //         K(FNU,Z*EXP(MP)) = EXP(-MP*FNU)*K(FNU,Z)-MP*I(FNU,Z)
        //         MP=MR*PI*I, MR=+1 OR -1, RE(Z).GT.0, I**2=-1
        //
        //         WHERE I(FNU,Z) IS THE I BESSEL FUNCTION.
        //
        //         EXPONENTIAL DECAY OF H(M,FNU,Z) OCCURS IN THE UPPER HALF Z
        //         PLANE FOR M=1 AND THE LOWER HALF Z PLANE FOR M=2.  EXPONENTIAL
        //         GROWTH OCCURS IN THE COMPLEMENTARY HALF PLANES.  SCALING
        //         BY EXP(-MM*Z*I) REMOVES THE EXPONENTIAL BEHAVIOR IN THE
        //         WHOLE Z PLANE FOR Z TO INFINITY.
        //
        //         FOR NEGATIVE ORDERS,THE FORMULAE
        //
        //               H(1,-FNU,Z) = H(1,FNU,Z)*CEXP( PI*FNU*I)
        //               H(2,-FNU,Z) = H(2,FNU,Z)*CEXP(-PI*FNU*I)
        //                         I**2=-1
        //
        //         CAN BE USED.
        //
        //         IN MOST COMPLEX VARIABLE COMPUTATION, ONE MUST EVALUATE ELE-
        //         MENTARY FUNCTIONS. WHEN THE MAGNITUDE OF Z OR FNU+N-1 IS
        //         LARGE, LOSSES OF SIGNIFICANCE BY ARGUMENT REDUCTION OCCUR.
        //         CONSEQUENTLY, IF EITHER ONE EXCEEDS U1=SQRT(0.5/UR), THEN
        //         LOSSES EXCEEDING HALF PRECISION ARE LIKELY AND AN ERROR FLAG
        //         IERR=3 IS TRIGGERED WHERE UR=DMAX1(D1MACH(4),1.0D-18) IS
        //         DOUBLE PRECISION UNIT ROUNDOFF LIMITED TO 18 DIGITS PRECISION.
        //         IF EITHER IS LARGER THAN U2=0.5/UR, THEN ALL SIGNIFICANCE IS
        //         LOST AND IERR=4. IN ORDER TO USE THE INT FUNCTION, ARGUMENTS
        //         MUST BE FURTHER RESTRICTED NOT TO EXCEED THE LARGEST MACHINE
        //         INTEGER, U3=I1MACH(9). THUS, THE MAGNITUDE OF Z AND FNU+N-1 IS
        //         RESTRICTED BY MIN(U2,U3). ON 32 BIT MACHINES, U1,U2, AND U3
        //         ARE APPROXIMATELY 2.0E+3, 4.2E+6, 2.1E+9 IN SINGLE PRECISION
        //         ARITHMETIC AND 1.3E+8, 1.8E+16, 2.1E+9 IN DOUBLE PRECISION
        //         ARITHMETIC RESPECTIVELY. THIS MAKES U2 AND U3 LIMITING IN
        //         THEIR RESPECTIVE ARITHMETICS. THIS MEANS THAT ONE CAN EXPECT
        //         TO RETAIN, IN THE WORST CASES ON 32 BIT MACHINES, NO DIGITS
        //         IN SINGLE AND ONLY 7 DIGITS IN DOUBLE PRECISION ARITHMETIC.
        //         SIMILAR CONSIDERATIONS HOLD FOR OTHER MACHINES.
        //
        //         THE APPROXIMATE RELATIVE ERROR IN THE MAGNITUDE OF A COMPLEX
        //         BESSEL FUNCTION CAN BE EXPRESSED BY P*10**S WHERE P=MAX(UNIT
        //         ROUNDOFF,1.0D-18) IS THE NOMINAL PRECISION AND 10**S REPRE-
        //         SENTS THE INCREASE IN ERROR DUE TO ARGUMENT REDUCTION IN THE
        //         ELEMENTARY FUNCTIONS. HERE, S=MAX(1,ABS(LOG10(CABS(Z))),
        //         ABS(LOG10(FNU))) APPROXIMATELY (I.E. S=MAX(1,ABS(EXPONENT OF
        //         CABS(Z),ABS(EXPONENT OF FNU)) ). HOWEVER, THE PHASE ANGLE MAY
        //         HAVE ONLY ABSOLUTE ACCURACY. THIS IS MOST LIKELY TO OCCUR WHEN
        //         ONE COMPONENT (IN ABSOLUTE VALUE) IS LARGER THAN THE OTHER BY
        //         SEVERAL ORDERS OF MAGNITUDE. IF ONE COMPONENT IS 10**K LARGER
        //         THAN THE OTHER, THEN ONE CAN EXPECT ONLY MAX(ABS(LOG10(P))-K,
        //         0) SIGNIFICANT DIGITS; OR, STATED ANOTHER WAY, WHEN K EXCEEDS
        //         THE EXPONENT OF P, NO SIGNIFICANT DIGITS REMAIN IN THE SMALLER
        //         COMPONENT. HOWEVER, THE PHASE ANGLE RETAINS ABSOLUTE ACCURACY
        //         BECAUSE, IN COMPLEX ARITHMETIC WITH PRECISION P, THE SMALLER
        //         COMPONENT WILL NOT (AS A RULE) DECREASE BELOW P TIMES THE
        //         MAGNITUDE OF THE LARGER COMPONENT. IN THESE EXTREME CASES,
        //         THE PRINCIPAL PHASE ANGLE IS ON THE ORDER OF +P, -P, PI/2-P,
        //         OR -PI/2+P.
        //
        //***REFERENCES  HANDBOOK OF MATHEMATICAL FUNCTIONS BY M. ABRAMOWITZ
        //                 AND I. A. STEGUN, NBS AMS SERIES 55, U.S. DEPT. OF
        //                 COMMERCE, 1955.
        //
        //               COMPUTATION OF BESSEL FUNCTIONS OF COMPLEX ARGUMENT
        //                 BY D. E. AMOS, SAND83-0083, MAY, 1983.
        //
        //               COMPUTATION OF BESSEL FUNCTIONS OF COMPLEX ARGUMENT
        //                 AND LARGE ORDER BY D. E. AMOS, SAND83-0643, MAY, 1983
        //
        //               A SUBROUTINE PACKAGE FOR BESSEL FUNCTIONS OF A COMPLEX
        //                 ARGUMENT AND NONNEGATIVE ORDER BY D. E. AMOS, SAND85-
        //                 1018, MAY, 1985
        //
        //               A PORTABLE PACKAGE FOR BESSEL FUNCTIONS OF A COMPLEX
        //                 ARGUMENT AND NONNEGATIVE ORDER BY D. E. AMOS, TRANS.
        //                 MATH. SOFTWARE, 1986
        //
        //***ROUTINES CALLED  ZACON,ZBKNU,ZBUNK,ZUOIK,AZABS,I1MACH,D1MACH
        //***END PROLOGUE  ZBESH

        zcx zn, zt, csgn;
        double aa, alim, aln, arg, az, cpn, dig, elim, fmm, fn, fnul, rhpi, rl, r1m5, sgn, spn, tol, xn, xx, yn, yy, bb,
            ascle, rtol, atol;
        int i, inu, inuh, ir, k, k1, k2, mm, mr, nn, nuf, nw, nz;

        nz = 0;
        xx = az_real(z);
        yy = az_imag(z);
        *ierr = 0;

        if ((xx == 0.0) && (yy == 0.0)) {
            *ierr = 1;
        }
        if (fnu < 0.0) {
            *ierr = 1;
        }
        if ((m < 1) || (m > 2)) {
            *ierr = 1;
        }
        if ((kode < 1) || (kode > 2)) {
            *ierr = 1;
        }
        if (n < 1) {
            *ierr = 1;
        }
        if (*ierr != 0) {
            return nz;
        }
        nn = n;
        //
        //  SET PARAMETERS RELATED TO MACHINE CONSTANTS.
        //  TOL IS THE APPROXIMATE UNIT ROUNDOFF LIMITED TO 1.0E-18.
        //  ELIM IS THE APPROXIMATE EXPONENTIAL OVER- AND UNDERFLOW LIMIT.
        //  EXP(-ELIM).LT.EXP(-ALIM)=EXP(-ELIM)/TOL    AND
        //  EXP(ELIM).GT.EXP(ALIM)=EXP(ELIM)*TOL       ARE INTERVALS NEAR
        //  UNDERFLOW AND OVERFLOW LIMITS WHERE SCALED ARITHMETIC IS DONE.
        //  RL IS THE LOWER BOUNDARY OF THE ASYMPTOTIC EXPANSION FOR LARGE Z.
        //  DIG = NUMBER OF BASE 10 DIGITS IN TOL = 10**(-DIG).
        //  FNUL IS THE LOWER BOUNDARY OF THE ASYMPTOTIC SERIES FOR LARGE FNU
        //
        tol = RTOL_MIN;
        k1 = (-1021);
        k2 = 1024;
        r1m5 = LOG10_2;
        k = (az_abs(k1) > az_abs(k2) ? az_abs(k2) : az_abs(k1));
        elim = 2.303 * (k * r1m5 - 3.0);
        k1 = 53 - 1;
        aa = r1m5 * k1;
        dig = az_fmin(aa, 18.0);
        aa *= 2.303;
        alim = elim + az_fmax(-aa, -41.45);
        fnul = 10.0 + 6.0 * (dig - 3.0);
        rl = 1.2 * dig + 3.0;
        fn = fnu + (nn - 1);
        mm = 3 - m - m;
        fmm = mm;
        zn = z * zcx(0.0, -fmm);
        xn = az_real(zn);
        yn = az_imag(zn);
        //
        // TEST FOR PROPER RANGE
        //
        az = az_abs(z);
        bb = 1.7976931348623157e+308 * 0.5;
        aa = az_fmin(0.5 / tol, bb);
        if ((az > aa) || (fn > aa)) {
            *ierr = 4;
            return 0;
        } /* GO TO 260 */
        aa = az_sqrt(aa);
        if (az > aa) {
            *ierr = 3;
        }
        if (fn > aa) {
            *ierr = 3;
        }
        //
        // OVERFLOW TEST ON THE LAST MEMBER OF THE SEQUENCE
        //
        if (az < THRESHOLD_MIN) {
            *ierr = 2;
            return 0;
        } /* GO TO 230 */
        if (fnu <= fnul) {
            //
            // Untangling GOTOs with explicit conditions
            //
            if ((fn > 1.0) && (fn <= 2.0) && (az <= tol)) {
                /* Failed through all checks */
                arg = 0.5 * az;
                aln = -fn * az_log(arg);
                if (aln > elim) {
                    *ierr = 2;
                    return 0;
                } /* GO TO 230 */
                /* GO TO 70 */
            } else if ((fn > 1.0) && (fn <= 2.0) && (az > tol)) {
                /* Failed all but the az > tol hence do nothing and GO TO 70 */
            } else if ((fn > 1.0) && (fn > 2.0)) {
                /* GO TO 60 */
                nuf = uoik(zn, fnu, kode, 2, nn, cy, tol, elim, alim);
                if (nuf < 0) {
                    *ierr = 2;
                    return 0;
                } /* GO TO 230 */
                nz += nuf;
                nn -= nuf;
                //
                // HERE NN=N OR NN=0 SINCE NUF=0,NN, OR -1 ON RETURN FROM CUOIK
                // IF NUF=NN, THEN CY(I)=CZERO FOR ALL I
                //
                if (nn == 0) {
                    /* GO TO 140 */
                    if (xn < 0.0) {
                        *ierr = 2;
                        return 0;
                    } /* GO TO 230 */
                    return nz;
                }
                /* GO TO 70 */
            } else {
                /* Passed the first hence GO TO 70 */
            }

            /* GO TO 70 */
            //
            // More GOTOs untangling
            //
            if ((xn < 0.0) || ((xn == 0.0) && (yn < 0.0) && (m == 2))) {
                /* GO TO 80 */
                mr = -mm;
                nw = acon(zn, fnu, kode, mr, nn, cy, rl, fnul, tol, elim, alim);
                if (nw < 0) {
                    /* GO TO 240 */
                    if (nw == -1) {
                        *ierr = 2;
                        return 0;
                    } /* GO TO 230 */
                    *ierr = 5;
                    return 0;
                }
                nz = nw;
                /* GO TO 110 */
            } else {
                //
                // RIGHT HALF PLANE COMPUTATION, XN >= 0.  .AND.  (XN.NE.0.  .OR.
                // YN >= 0.  .OR.  M=1)
                //
                nz = bknu(zn, fnu, kode, nn, cy, tol, elim, alim);
                /* GO TO 110 */
            }
        } else {
            /* GO TO 90 */
            //
            // UNIFORM ASYMPTOTIC EXPANSIONS FOR FNU > FNUL
            //
            mr = 0;
            if (!((xn >= 0.0) && ((xn != 0.0) || (yn >= 0.0) || (m != 2)))) {
                mr = -mm;
                if ((xn == 0.0) && (yn < 0.0)) {
                    zn = -zn;
                }
            }
            /* GO TO 100 */
            nw = bunk(zn, fnu, kode, mr, nn, cy, tol, elim, alim);
            if (nw < 0) {
                /* GO TO 240 */
                if (nw == -1) {
                    *ierr = 2;
                    return 0;
                } /* GO TO 230 */
                *ierr = 5;
                return 0;
            }
            nz += nw;
        }
        /* 110 */
        //
        // H(M,FNU,Z) = -FMM*(I/HPI)*(ZT**FNU)*K(FNU,-Z*ZT)
        // ZT=EXP(-FMM*HPI*I) = zcx(0.0,-FMM), FMM=3-2*M, M=1,2
        //
        sgn = (-fmm < 0 ? -k_pi_2 : k_pi_2);
        //
        // CALCULATE EXP(FNU*HPI*I) TO MINIMIZE LOSSES OF SIGNIFICANCE
        // WHEN FNU IS LARGE
        //
        inu = (int)fnu;
        inuh = inu / 2;
        ir = inu - 2 * inuh;
        arg = (fnu - (inu - ir)) * sgn;
        rhpi = 1.0 / sgn;
        cpn = rhpi * az_cos(arg);
        spn = -rhpi * az_sin(arg);
        csgn = zcx(spn, cpn);
        if (inuh % 2 == 1) {
            csgn = -csgn;
        }
        zt = zcx(0.0, -fmm);
        rtol = 1.0 / tol;
        ascle = THRESHOLD_MIN * rtol;
        for (i = 1; i < (nn + 1); i++) {
            zn = cy[i - 1];
            atol = 1.0;
            if (az_fmax(az_fabs(az_real(zn)), az_fabs(az_imag(zn))) <= ascle) {
                zn *= rtol;
                atol = tol;
            }
            zn *= csgn;
            cy[i - 1] = zn * atol;
            csgn *= zt;
        }
        return nz;
    }

}  // namespace amos
}  // namespace cuarray_special
#endif
