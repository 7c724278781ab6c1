// AMOS (amos_core.cuh says what and whence): the drivers for K (besk) and Y (besy).
#ifndef CUARRAY_SPECIAL_AMOS_DRIVERS_KY_CUH
#define CUARRAY_SPECIAL_AMOS_DRIVERS_KY_CUH
namespace cuarray_special {
namespace amos {

    CSF_NOINLINE int besk(zcx z, double fnu, int kode, int n, zcx *cy, int *ierr) {

        //***BEGIN PROLOGUE  ZBESK
        //***DATE WRITTEN   830501   (YYMMDD)
        //***REVISION DATE  890801   (YYMMDD)
        //***CATEGORY NO.  B5K
        //***KEYWORDS  K-BESSEL FUNCTION,COMPLEX BESSEL FUNCTION,
        //             MODIFIED BESSEL FUNCTION OF THE SECOND KIND,
        //             BESSEL FUNCTION OF THE THIRD KIND
        //***AUTHOR  AMOS, DONALD E., SANDIA NATIONAL LABORATORIES
        //***PURPOSE  TO COMPUTE K-BESSEL FUNCTIONS OF COMPLEX ARGUMENT
        //***DESCRIPTION
        //
        //                      ***A DOUBLE PRECISION ROUTINE***
        //
        //         ON KODE=1, CBESK COMPUTES AN N MEMBER SEQUENCE OF COMPLEX
        //         BESSEL FUNCTIONS CY(J)=K(FNU+J-1,Z) FOR REAL, NONNEGATIVE
        //         ORDERS FNU+J-1, J=1,...,N AND COMPLEX Z.NE.zcx(0.0,0.0)
        //         IN THE CUT PLANE -PI.LT.ARG(Z).LE.PI. ON KODE=2, CBESK
        //         RETURNS THE SCALED K FUNCTIONS,
        //
        //         CY(J)=EXP(Z)*K(FNU+J-1,Z) , J=1,...,N,
        //
        //         WHICH REMOVE THE EXPONENTIAL BEHAVIOR IN BOTH THE LEFT AND
        //         RIGHT HALF PLANES FOR Z TO INFINITY. DEFINITIONS AND
        //         NOTATION ARE FOUND IN THE NBS HANDBOOK OF MATHEMATICAL
        //         FUNCTIONS (REF. 1).
        //
        //         INPUT      ZR,ZI,FNU ARE DOUBLE PRECISION
        //           ZR,ZI  - Z=zcx(ZR,ZI), Z.NE.zcx(0.0D0,0.0D0),
        //                    -PI.LT.ARG(Z).LE.PI
        //           FNU    - ORDER OF INITIAL K FUNCTION, FNU.GE.0.0D0
        //           N      - NUMBER OF MEMBERS OF THE SEQUENCE, N.GE.1
        //           KODE   - A PARAMETER TO INDICATE THE SCALING OPTION
        //                    KODE= 1  RETURNS
        //                             CY(I)=K(FNU+I-1,Z), I=1,...,N
        //                        = 2  RETURNS
        //                             CY(I)=K(FNU+I-1,Z)*EXP(Z), I=1,...,N
        //
        //         OUTPUT     CYR,CYI ARE DOUBLE PRECISION
        //           CYR,CYI- DOUBLE PRECISION VECTORS WHOSE FIRST N COMPONENTS
        //                    CONTAIN REAL AND IMAGINARY PARTS FOR THE SEQUENCE
        //                    CY(I)=K(FNU+I-1,Z), I=1,...,N OR
        //                    CY(I)=K(FNU+I-1,Z)*EXP(Z), I=1,...,N
        //                    DEPENDING ON KODE
        //           NZ     - NUMBER OF COMPONENTS SET TO ZERO DUE TO UNDERFLOW.
        //                    NZ= 0   , NORMAL RETURN
        //                    NZ.GT.0 , FIRST NZ COMPONENTS OF CY SET TO ZERO DUE
        //                              TO UNDERFLOW, CY(I)=zcx(0.0D0,0.0D0),
        //                              I=1,...,N WHEN X.GE.0.0. WHEN X.LT.0.0
        //                              NZ STATES ONLY THE NUMBER OF UNDERFLOWS
        //                              IN THE SEQUENCE.
        //
        //           IERR   - ERROR FLAG
        //                    IERR=0, NORMAL RETURN - COMPUTATION COMPLETED
        //                    IERR=1, INPUT ERROR   - NO COMPUTATION
        //                    IERR=2, OVERFLOW      - NO COMPUTATION, FNU IS
        //                            TOO LARGE OR CABS(Z) IS TOO SMALL OR BOTH
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
        //         EQUATIONS OF THE REFERENCE ARE IMPLEMENTED FOR SMALL ORDERS
        //         DNU AND DNU+1.0 IN THE RIGHT HALF PLANE X.GE.0.0. FORWARD
        //         RECURRENCE GENERATES HIGHER ORDERS. K IS CONTINUED TO THE LEFT
        //         HALF PLANE BY THE RELATION
        //
        //         K(FNU,Z*EXP(MP)) = EXP(-MP*FNU)*K(FNU,Z)-MP*I(FNU,Z)
        //         MP=MR*PI*I, MR=+1 OR -1, RE(Z).GT.0, I**2=-1
        //
        //         WHERE I(FNU,Z) IS THE I BESSEL FUNCTION.
        //
        //         FOR LARGE ORDERS, FNU.GT.FNUL, THE K FUNCTION IS COMPUTED
        //         BY MEANS OF ITS UNIFORM ASYMPTOTIC EXPANSIONS.
        //
        //         FOR NEGATIVE ORDERS, THE FORMULA
        //
        //                       K(-FNU,Z) = K(FNU,Z)
        //
        //         CAN BE USED.
        //
        //         CBESK ASSUMES THAT A SIGNIFICANT DIGIT SINH(X) FUNCTION IS
        //         AVAILABLE.
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
        //         ROUNDOFF,1.0E-18) IS THE NOMINAL PRECISION AND 10**S REPRE-
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
        //                 AND LARGE ORDER BY D. E. AMOS, SAND83-0643, MAY, 1983.
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
        //***END PROLOGUE  ZBESK

        double xx = az_real(z);
        double yy = az_imag(z);
        double aa, alim, aln, arg, az, dig, elim, fn, fnul, rl, r1m5, tol, bb;
        int k, k1, k2, mr, nn, nuf, nw, nz;

        *ierr = 0;
        nz = 0;

        if ((yy == 0.0) && (xx == 0.0)) {
            *ierr = 1;
        }
        if (fnu < 0.0) {
            *ierr = 1;
        }
        if (kode < 1 || kode > 2) {
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
        //
        // TEST FOR PROPER RANGE
        //
        az = az_abs(z);
        fn = fnu + (nn - 1);
        aa = 0.5 / tol;
        bb = 2147483647 * 0.5;
        aa = az_fmin(aa, bb);
        if ((az > aa) || (fn > aa)) {
            *ierr = 4;
            return 0;
        }
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
        }
        if (fnu <= fnul) {
            if (fn > 1.0) {
                if (fn <= 2.0) {
                    if (az <= tol) {
                        arg = 0.5 * az;
                        aln = -fn * az_log(arg);
                        if (aln > elim) {
                            *ierr = 2;
                            return 0;
                        }
                    }
                    /* GO TO 60 */
                } else {
                    nuf = uoik(z, fnu, kode, 2, nn, cy, tol, elim, alim);
                    if (nuf < 0) {
                        *ierr = 2;
                        return 0;
                    }
                    nz += nuf;
                    nn -= nuf;
                    //
                    // HERE NN=N OR NN=0 SINCE NUF=0,NN, OR -1 ON RETURN FROM CUOIK
                    // IF NUF=NN, THEN CY(I)=CZERO FOR ALL I
                    //
                    if (nn == 0) {
                        if (xx < 0.0) {
                            *ierr = 2;
                            return 0;
                        }
                        return nz;
                    }
                }
            }

            /* 60 */
            if (xx >= 0.0) {
                //
                // RIGHT HALF PLANE COMPUTATION, REAL(Z) >= 0.
                //
                nw = bknu(z, fnu, kode, nn, cy, tol, elim, alim);
                if (nw < 0) {
                    if (nw == -1) {
                        *ierr = 2;
                    } else {
                        *ierr = 5;
                    }
                    return 0;
                }
                return nw;
            }
            /* 70 */
            //
            // LEFT HALF PLANE COMPUTATION
            // PI/2 < ARG(Z) <= PI AND -PI < ARG(Z) < -PI/2.
            //
            if (nz != 0) {
                *ierr = 2;
                return 0;
            }
            mr = 1;
            if (yy < 0.0) {
                mr = -1;
            }
            nw = acon(z, fnu, kode, mr, nn, cy, rl, fnul, tol, elim, alim);
            if (nw < 0) {
                if (nw == -1) {
                    *ierr = 2;
                } else {
                    *ierr = 5;
                }
                return 0;
            }
            return nw;
        }

        /* 80 */
        //
        // UNIFORM ASYMPTOTIC EXPANSIONS FOR FNU > FNUL
        //
        mr = 0;
        if (xx < 0.0) {
            mr = 1;
            if (yy < 0.0) {
                mr = -1;
            }
        }
        nw = bunk(z, fnu, kode, mr, nn, cy, tol, elim, alim);
        if (nw < 0) {
            if (nw == -1) {
                *ierr = 2;
            } else {
                *ierr = 5;
            }
            return 0;
        }
        nz += nw;
        return nz;
    }

    CSF_NOINLINE int besy(zcx z, double fnu, int kode, int n, zcx *cy, int *ierr) {

        //***BEGIN PROLOGUE  ZBESY
        //***DATE WRITTEN   830501   (YYMMDD)
        //***REVISION DATE  890801   (YYMMDD)
        //***CATEGORY NO.  B5K
        //***KEYWORDS  Y-BESSEL FUNCTION,BESSEL FUNCTION OF COMPLEX ARGUMENT,
        //             BESSEL FUNCTION OF SECOND KIND
        //***AUTHOR  AMOS, DONALD E., SANDIA NATIONAL LABORATORIES
        //***PURPOSE  TO COMPUTE THE Y-BESSEL FUNCTION OF A COMPLEX ARGUMENT
        //***DESCRIPTION
        //
        //                      ***A DOUBLE PRECISION ROUTINE***
        //
        //         ON KODE=1, CBESY COMPUTES AN N MEMBER SEQUENCE OF COMPLEX
        //         BESSEL FUNCTIONS CY(I)=Y(FNU+I-1,Z) FOR REAL, NONNEGATIVE
        //         ORDERS FNU+I-1, I=1,...,N AND COMPLEX Z IN THE CUT PLANE
        //         -PI.LT.ARG(Z).LE.PI. ON KODE=2, CBESY RETURNS THE SCALED
        //         FUNCTIONS
        //
        //         CY(I)=EXP(-ABS(Y))*Y(FNU+I-1,Z)   I = 1,...,N , Y=AIMAG(Z)
        //
        //         WHICH REMOVE THE EXPONENTIAL GROWTH IN BOTH THE UPPER AND
        //         LOWER HALF PLANES FOR Z TO INFINITY. DEFINITIONS AND NOTATION
        //         ARE FOUND IN THE NBS HANDBOOK OF MATHEMATICAL FUNCTIONS
        //         (REF. 1).
        //
        //         INPUT      ZR,ZI,FNU ARE DOUBLE PRECISION
        //           ZR,ZI  - Z=zcx(ZR,ZI), Z.NE.zcx(0.0D0,0.0D0),
        //                    -PI.LT.ARG(Z).LE.PI
        //           FNU    - ORDER OF INITIAL Y FUNCTION, FNU.GE.0.0D0
        //           KODE   - A PARAMETER TO INDICATE THE SCALING OPTION
        //                    KODE= 1  RETURNS
        //                             CY(I)=Y(FNU+I-1,Z), I=1,...,N
        //                        = 2  RETURNS
        //                             CY(I)=Y(FNU+I-1,Z)*EXP(-ABS(Y)), I=1,...,N
        //                             WHERE Y=AIMAG(Z)
        //           N      - NUMBER OF MEMBERS OF THE SEQUENCE, N.GE.1
        //           CWRKR, - DOUBLE PRECISION WORK VECTORS OF DIMENSION AT
        //           CWRKI    AT LEAST N
        //
        //         OUTPUT     CYR,CYI ARE DOUBLE PRECISION
        //           CYR,CYI- DOUBLE PRECISION VECTORS WHOSE FIRST N COMPONENTS
        //                    CONTAIN REAL AND IMAGINARY PARTS FOR THE SEQUENCE
        //                    CY(I)=Y(FNU+I-1,Z)  OR
        //                    CY(I)=Y(FNU+I-1,Z)*EXP(-ABS(Y))  I=1,...,N
        //                    DEPENDING ON KODE.
        //           NZ     - NZ=0 , A NORMAL RETURN
        //                    NZ.GT.0 , NZ COMPONENTS OF CY SET TO ZERO DUE TO
        //                    UNDERFLOW (GENERALLY ON KODE=2)
        //           IERR   - ERROR FLAG
        //                    IERR=0, NORMAL RETURN - COMPUTATION COMPLETED
        //                    IERR=1, INPUT ERROR   - NO COMPUTATION
        //                    IERR=2, OVERFLOW      - NO COMPUTATION, FNU IS
        //                            TOO LARGE OR CABS(Z) IS TOO SMALL OR BOTH
        //                    IERR=3, CABS(Z) OR FNU+N-1 LARGE - COMPUTATION DONE
        //                            BUT LOSSES OF SIGNIFCANCE BY ARGUMENT
        //                            REDUCTION PRODUCE LESS THAN HALF OF MACHINE
        //                            ACCURACY
        //                    IERR=4, CABS(Z) OR FNU+N-1 TOO LARGE - NO COMPUTA-
        //                            TION BECAUSE OF COMPLETE LOSSES OF SIGNIFI-
        //                            CANCE BY ARGUMENT REDUCTION
        //                    IERR=5, ERROR              - NO COMPUTATION,
        //                            ALGORITHM TERMINATION CONDITION NOT MET
        //                    IERR=6, Memory allocation failed.
        //
        //***LONG DESCRIPTION
        //
        //         THE COMPUTATION IS CARRIED OUT BY THE FORMULA
        //
        //         Y(FNU,Z)=0.5*(H(1,FNU,Z)-H(2,FNU,Z))/I
        //
        //         WHERE I**2 = -1 AND THE HANKEL BESSEL FUNCTIONS H(1,FNU,Z)
        //         AND H(2,FNU,Z) ARE CALCULATED IN CBESH.
        //
        //         FOR NEGATIVE ORDERS,THE FORMULA
        //
        //              Y(-FNU,Z) = Y(FNU,Z)*COS(PI*FNU) + J(FNU,Z)*SIN(PI*FNU)
        //
        //         CAN BE USED. HOWEVER,FOR LARGE ORDERS CLOSE TO HALF ODD
        //         INTEGERS THE FUNCTION CHANGES RADICALLY. WHEN FNU IS A LARGE
        //         POSITIVE HALF ODD INTEGER,THE MAGNITUDE OF Y(-FNU,Z)=J(FNU,Z)*
        //         SIN(PI*FNU) IS A LARGE NEGATIVE POWER OF TEN. BUT WHEN FNU IS
        //         NOT A HALF ODD INTEGER, Y(FNU,Z) DOMINATES IN MAGNITUDE WITH A
        //         LARGE POSITIVE POWER OF TEN AND THE MOST THAT THE SECOND TERM
        //         CAN BE REDUCED IS BY UNIT ROUNDOFF FROM THE COEFFICIENT. THUS,
        //         WIDE CHANGES CAN OCCUR WITHIN UNIT ROUNDOFF OF A LARGE HALF
        //         ODD INTEGER. HERE, LARGE MEANS FNU.GT.CABS(Z).
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
        //         ROUNDOFF,1.0E-18) IS THE NOMINAL PRECISION AND 10**S REPRE-
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
        //***ROUTINES CALLED  ZBESH,I1MACH,D1MACH
        //***END PROLOGUE  ZBESY

        zcx c1, c2, hci, st;
        double elim, exr, exi, ey, tay, xx, yy, ascle, rtol, atol, tol, aa, bb, r1m5;
        int i, k, k1, k2, nz, nz1, nz2;

        xx = az_real(z);
        yy = az_imag(z);
        *ierr = 0;
        nz = 0;

        if ((xx == 0.0) && (yy == 0.0)) {
            *ierr = 1;
        }
        if (fnu < 0.0) {
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

        hci = zcx(0.0, 0.5);
        nz1 = besh(z, fnu, kode, 1, n, cy, ierr);
        if ((*ierr != 0) && (*ierr != 3)) {
            return 0;
        }

        // (xsf allocates n values; the ufuncs ask for one: a fixed pair, no allocation)
        zcx cwrk[2];
        if (n > 2) {
            *ierr = 6;
            return 0;
        }

        nz2 = besh(z, fnu, kode, 2, n, cwrk, ierr);
        if ((*ierr != 0) && (*ierr != 3)) {
            return 0;
        }

        nz = (nz1 > nz2 ? nz2 : nz1);
        if (kode != 2) {
            for (i = 1; i < (n + 1); i++) {
                cy[i - 1] = hci * (cwrk[i - 1] - cy[i - 1]);
            }
            return nz;
        }

        tol = RTOL_MIN;
        k1 = (-1021);
        k2 = 1024;
        r1m5 = LOG10_2;
        k = (az_abs(k1) > az_abs(k2) ? az_abs(k2) : az_abs(k1));
        //
        // ELIM IS THE APPROXIMATE EXPONENTIAL UNDER- AND OVERFLOW LIMIT
        //
        elim = 2.303 * (k * r1m5 - 3.0);
        exr = az_cos(xx);
        exi = az_sin(xx);
        ey = 0.0;
        tay = az_fabs(yy + yy);
        if (tay < elim) {
            ey = az_exp(-tay);
        }
        if (yy < 0.0) {
            /* 90 */
            c1 = zcx(exr, exi);
            c2 = ey * zcx(exr, -exi);
        } else {
            c1 = ey * zcx(exr, exi);
            c2 = zcx(exr, -exi);
        }

        nz = 0;
        rtol = 1.0 / tol;
        ascle = THRESHOLD_MIN * rtol;
        for (i = 1; i < (n + 1); i++) {
            aa = az_real(cwrk[i - 1]);
            bb = az_imag(cwrk[i - 1]);
            atol = 1.0;
            if (az_fmax(az_fabs(aa), az_fabs(bb)) <= ascle) {
                aa *= rtol;
                bb *= rtol;
                atol = tol;
            }

            st = zcx(aa, bb) * c2 * atol;
            aa = az_real(cy[i - 1]);
            bb = az_imag(cy[i - 1]);
            atol = 1.0;
            if (az_fmax(az_fabs(aa), az_fabs(bb)) <= ascle) {
                aa *= rtol;
                bb *= rtol;
                atol = tol;
            }

            st -= zcx(aa, bb) * c1 * atol;
            cy[i - 1] = st * hci;
            if ((st == 0.0) && (ey == 0.0)) {
                nz += 1;
            }
        }

        return nz;
    }

}  // namespace amos
}  // namespace cuarray_special
#endif
