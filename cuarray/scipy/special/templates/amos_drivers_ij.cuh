// AMOS (amos_core.cuh says what and whence): the drivers for I (besi) and J (besj).
#ifndef CUARRAY_SPECIAL_AMOS_DRIVERS_IJ_CUH
#define CUARRAY_SPECIAL_AMOS_DRIVERS_IJ_CUH
namespace cuarray_special {
namespace amos {

    CSF_NOINLINE int besi(zcx z, double fnu, int kode, int n, zcx *cy, int *ierr) {

        //***BEGIN PROLOGUE  ZBESI
        //***DATE WRITTEN   830501   (YYMMDD)
        //***REVISION DATE  890801   (YYMMDD)
        //***CATEGORY NO.  B5K
        //***KEYWORDS  I-BESSEL FUNCTION,COMPLEX BESSEL FUNCTION,
        //             MODIFIED BESSEL FUNCTION OF THE FIRST KIND
        //***AUTHOR  AMOS, DONALD E., SANDIA NATIONAL LABORATORIES
        //***PURPOSE  TO COMPUTE I-BESSEL FUNCTIONS OF COMPLEX ARGUMENT
        //***DESCRIPTION
        //
        //                    ***A DOUBLE PRECISION ROUTINE***
        //         ON KODE=1, ZBESI COMPUTES AN N MEMBER SEQUENCE OF COMPLEX
        //         BESSEL FUNCTIONS CY(J)=I(FNU+J-1,Z) FOR REAL, NONNEGATIVE
        //         ORDERS FNU+J-1, J=1,...,N AND COMPLEX Z IN THE CUT PLANE
        //         -PI.LT.ARG(Z).LE.PI. ON KODE=2, ZBESI RETURNS THE SCALED
        //         FUNCTIONS
        //
        //         CY(J)=EXP(-ABS(X))*I(FNU+J-1,Z)   J = 1,...,N , X=REAL(Z)
        //
        //         WITH THE EXPONENTIAL GROWTH REMOVED IN BOTH THE LEFT AND
        //         RIGHT HALF PLANES FOR Z TO INFINITY. DEFINITIONS AND NOTATION
        //         ARE FOUND IN THE NBS HANDBOOK OF MATHEMATICAL FUNCTIONS
        //         (REF. 1).
        //
        //         INPUT      ZR,ZI,FNU ARE DOUBLE PRECISION
        //           ZR,ZI  - Z=zcx(ZR,ZI),  -PI.LT.ARG(Z).LE.PI
        //           FNU    - ORDER OF INITIAL I FUNCTION, FNU.GE.0.0D0
        //           KODE   - A PARAMETER TO INDICATE THE SCALING OPTION
        //                    KODE= 1  RETURNS
        //                             CY(J)=I(FNU+J-1,Z), J=1,...,N
        //                        = 2  RETURNS
        //                             CY(J)=I(FNU+J-1,Z)*EXP(-ABS(X)), J=1,...,N
        //           N      - NUMBER OF MEMBERS OF THE SEQUENCE, N.GE.1
        //
        //         OUTPUT     CYR,CYI ARE DOUBLE PRECISION
        //           CYR,CYI- DOUBLE PRECISION VECTORS WHOSE FIRST N COMPONENTS
        //                    CONTAIN REAL AND IMAGINARY PARTS FOR THE SEQUENCE
        //                    CY(J)=I(FNU+J-1,Z)  OR
        //                    CY(J)=I(FNU+J-1,Z)*EXP(-ABS(X))  J=1,...,N
        //                    DEPENDING ON KODE, X=REAL(Z)
        //           NZ     - NUMBER OF COMPONENTS SET TO ZERO DUE TO UNDERFLOW,
        //                    NZ= 0   , NORMAL RETURN
        //                    NZ.GT.0 , LAST NZ COMPONENTS OF CY SET TO ZERO
        //                              TO UNDERFLOW, CY(J)=zcx(0.0D0,0.0D0)
        //                              J = N-NZ+1,...,N
        //           IERR   - ERROR FLAG
        //                    IERR=0, NORMAL RETURN - COMPUTATION COMPLETED
        //                    IERR=1, INPUT ERROR   - NO COMPUTATION
        //                    IERR=2, OVERFLOW      - NO COMPUTATION, REAL(Z) TOO
        //                            LARGE ON KODE=1
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
        //         THE COMPUTATION IS CARRIED OUT BY THE POWER SERIES FOR
        //         SMALL CABS(Z), THE ASYMPTOTIC EXPANSION FOR LARGE CABS(Z),
        //         THE MILLER ALGORITHM NORMALIZED BY THE WRONSKIAN AND A
        //         NEUMANN SERIES FOR IMTERMEDIATE MAGNITUDES, AND THE
        //         UNIFORM ASYMPTOTIC EXPANSIONS FOR I(FNU,Z) AND J(FNU,Z)
        //         FOR LARGE ORDERS. BACKWARD RECURRENCE IS USED TO GENERATE
        //         SEQUENCES OR REDUCE ORDERS WHEN NECESSARY.
        //
        //         THE CALCULATIONS ABOVE ARE DONE IN THE RIGHT HALF PLANE AND
        //         CONTINUED INTO THE LEFT HALF PLANE BY THE FORMULA
        //
        //         I(FNU,Z*EXP(M*PI)) = EXP(M*PI*FNU)*I(FNU,Z)  REAL(Z).GT.0.0
        //                       M = +I OR -I,  I**2=-1
        //
        //         FOR NEGATIVE ORDERS,THE FORMULA
        //
        //              I(-FNU,Z) = I(FNU,Z) + (2/PI)*SIN(PI*FNU)*K(FNU,Z)
        //
        //         CAN BE USED. HOWEVER,FOR LARGE ORDERS CLOSE TO INTEGERS, THE
        //         THE FUNCTION CHANGES RADICALLY. WHEN FNU IS A LARGE POSITIVE
        //         INTEGER,THE MAGNITUDE OF I(-FNU,Z)=I(FNU,Z) IS A LARGE
        //         NEGATIVE POWER OF TEN. BUT WHEN FNU IS NOT AN INTEGER,
        //         K(FNU,Z) DOMINATES IN MAGNITUDE WITH A LARGE POSITIVE POWER OF
        //         TEN AND THE MOST THAT THE SECOND TERM CAN BE REDUCED IS BY
        //         UNIT ROUNDOFF FROM THE COEFFICIENT. THUS, WIDE CHANGES CAN
        //         OCCUR WITHIN UNIT ROUNDOFF OF A LARGE INTEGER FOR FNU. HERE,
        //         LARGE MEANS FNU.GT.CABS(Z).
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
        //***ROUTINES CALLED  ZBINU,I1MACH,D1MACH
        //***END PROLOGUE  ZBESI

        zcx csgn, zn;
        double aa, alim, arg, atol, ascle, az, bb, dig, elim, fn, fnul, rl, rtol, r1m5, tol, xx, yy;
        int i, inu, k, k1, k2, nn, nz;
        *ierr = 0;
        nz = 0;
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
        xx = az_real(z);
        yy = az_imag(z);
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
        rl = 1.2 * dig + 3.0;
        fnul = 10.0 + 6.0 * (dig - 3.0);
        //
        // TEST FOR PROPER RANGE
        //
        az = az_abs(z);
        fn = fnu + (n - 1);
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
        zn = z;
        csgn = 1.0;
        if (xx < 0.0) {
            zn = -z;
            //
            // CALCULATE CSGN=EXP(FNU*PI*I) TO MINIMIZE LOSSES OF SIGNIFICANCE
            // WHEN FNU IS LARGE
            //
            inu = (int)fnu;
            arg = (fnu - inu) * k_pi;
            if (yy < 0.0) {
                arg = -arg;
            }
            csgn = zcx(az_cos(arg), az_sin(arg));
            if (inu % 2 == 1) {
                csgn = -csgn;
            }
        }
        /* 40 */
        nz = binu(zn, fnu, kode, n, cy, rl, fnul, tol, elim, alim);
        if (nz < 0) {
            if (nz == -2) {
                *ierr = 5;
                return 0;
            }
            *ierr = 2;
            return 0;
        }
        if (xx >= 0.0) {
            return nz;
        }
        //
        // ANALYTIC CONTINUATION TO THE LEFT HALF PLANE
        //
        nn = n - nz;
        if (nn == 0) {
            return nz;
        }
        rtol = 1.0 / tol;
        ascle = THRESHOLD_MIN * rtol;
        for (i = 1; i < (nn + 1); i++) {
            zn = cy[i - 1];
            atol = 1.0;
            if (az_fmax(az_fabs(az_real(zn)), az_fabs(az_imag(zn))) <= ascle) {
                zn *= rtol;
                atol = tol;
            }
            cy[i - 1] = atol * (zn * csgn);
            csgn = -csgn;
        }
        *ierr = 0;
        return nz;
    }

    CSF_NOINLINE int besj(zcx z, double fnu, int kode, int n, zcx *cy, int *ierr) {

        //***BEGIN PROLOGUE  ZBESJ
        //***DATE WRITTEN   830501   (YYMMDD)
        //***REVISION DATE  890801   (YYMMDD)
        //***CATEGORY NO.  B5K
        //***KEYWORDS  J-BESSEL FUNCTION,BESSEL FUNCTION OF COMPLEX ARGUMENT,
        //             BESSEL FUNCTION OF FIRST KIND
        //***AUTHOR  AMOS, DONALD E., SANDIA NATIONAL LABORATORIES
        //***PURPOSE  TO COMPUTE THE J-BESSEL FUNCTION OF A COMPLEX ARGUMENT
        //***DESCRIPTION
        //
        //                      ***A DOUBLE PRECISION ROUTINE***
        //         ON KODE=1, CBESJ COMPUTES AN N MEMBER  SEQUENCE OF COMPLEX
        //         BESSEL FUNCTIONS CY(I)=J(FNU+I-1,Z) FOR REAL, NONNEGATIVE
        //         ORDERS FNU+I-1, I=1,...,N AND COMPLEX Z IN THE CUT PLANE
        //         -PI.LT.ARG(Z).LE.PI. ON KODE=2, CBESJ RETURNS THE SCALED
        //         FUNCTIONS
        //
        //         CY(I)=EXP(-ABS(Y))*J(FNU+I-1,Z)   I = 1,...,N , Y=AIMAG(Z)
        //
        //         WHICH REMOVE THE EXPONENTIAL GROWTH IN BOTH THE UPPER AND
        //         LOWER HALF PLANES FOR Z TO INFINITY. DEFINITIONS AND NOTATION
        //         ARE FOUND IN THE NBS HANDBOOK OF MATHEMATICAL FUNCTIONS
        //         (REF. 1).
        //
        //         INPUT      ZR,ZI,FNU ARE DOUBLE PRECISION
        //           ZR,ZI  - Z=zcx(ZR,ZI),  -PI.LT.ARG(Z).LE.PI
        //           FNU    - ORDER OF INITIAL J FUNCTION, FNU.GE.0.0D0
        //           KODE   - A PARAMETER TO INDICATE THE SCALING OPTION
        //                    KODE= 1  RETURNS
        //                             CY(I)=J(FNU+I-1,Z), I=1,...,N
        //                        = 2  RETURNS
        //                             CY(I)=J(FNU+I-1,Z)EXP(-ABS(Y)), I=1,...,N
        //           N      - NUMBER OF MEMBERS OF THE SEQUENCE, N.GE.1
        //
        //         OUTPUT     CYR,CYI ARE DOUBLE PRECISION
        //           CYR,CYI- DOUBLE PRECISION VECTORS WHOSE FIRST N COMPONENTS
        //                    CONTAIN REAL AND IMAGINARY PARTS FOR THE SEQUENCE
        //                    CY(I)=J(FNU+I-1,Z)  OR
        //                    CY(I)=J(FNU+I-1,Z)EXP(-ABS(Y))  I=1,...,N
        //                    DEPENDING ON KODE, Y=AIMAG(Z).
        //           NZ     - NUMBER OF COMPONENTS SET TO ZERO DUE TO UNDERFLOW,
        //                    NZ= 0   , NORMAL RETURN
        //                    NZ.GT.0 , LAST NZ COMPONENTS OF CY SET  ZERO DUE
        //                              TO UNDERFLOW, CY(I)=zcx(0.0D0,0.0D0),
        //                              I = N-NZ+1,...,N
        //           IERR   - ERROR FLAG
        //                    IERR=0, NORMAL RETURN - COMPUTATION COMPLETED
        //                    IERR=1, INPUT ERROR   - NO COMPUTATION
        //                    IERR=2, OVERFLOW      - NO COMPUTATION, AIMAG(Z)
        //                            TOO LARGE ON KODE=1
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
        //         THE COMPUTATION IS CARRIED OUT BY THE FORMULA
        //
        //         J(FNU,Z)=EXP( FNU*PI*I/2)*I(FNU,-I*Z)    AIMAG(Z).GE.0.0
        //
        //         J(FNU,Z)=EXP(-FNU*PI*I/2)*I(FNU, I*Z)    AIMAG(Z).LT.0.0
        //
        //         WHERE I**2 = -1 AND I(FNU,Z) IS THE I BESSEL FUNCTION.
        //
        //         FOR NEGATIVE ORDERS,THE FORMULA
        //
        //              J(-FNU,Z) = J(FNU,Z)*COS(PI*FNU) - Y(FNU,Z)*SIN(PI*FNU)
        //
        //         CAN BE USED. HOWEVER,FOR LARGE ORDERS CLOSE TO INTEGERS, THE
        //         THE FUNCTION CHANGES RADICALLY. WHEN FNU IS A LARGE POSITIVE
        //         INTEGER,THE MAGNITUDE OF J(-FNU,Z)=J(FNU,Z)*COS(PI*FNU) IS A
        //         LARGE NEGATIVE POWER OF TEN. BUT WHEN FNU IS NOT AN INTEGER,
        //         Y(FNU,Z) DOMINATES IN MAGNITUDE WITH A LARGE POSITIVE POWER OF
        //         TEN AND THE MOST THAT THE SECOND TERM CAN BE REDUCED IS BY
        //         UNIT ROUNDOFF FROM THE COEFFICIENT. THUS, WIDE CHANGES CAN
        //         OCCUR WITHIN UNIT ROUNDOFF OF A LARGE INTEGER FOR FNU. HERE,
        //         LARGE MEANS FNU.GT.CABS(Z).
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
        //***ROUTINES CALLED  ZBINU,I1MACH,D1MACH
        //***END PROLOGUE  ZBESJ

        zcx ci, csgn, zn;
        double aa, alim, arg, dig, elim, fnul, rl, r1, r1m5, r2, tol, yy, az, fn, bb, ascle, rtol, atol;
        int i, inu, inuh, ir, k1, k2, nl, nz, k;

        *ierr = 0;
        nz = 0;
        if (fnu < 0.0)
            *ierr = 1;
        if (kode < 1 || kode > 2)
            *ierr = 1;
        if (n < 1)
            *ierr = 1;
        if (*ierr != 0)
            return nz;
        //
        // SET PARAMETERS RELATED TO MACHINE CONSTANTS.
        // TOL IS THE APPROXIMATE UNIT ROUNDOFF LIMITED TO 1.0E-18.
        // ELIM IS THE APPROXIMATE EXPONENTIAL OVER- AND UNDERFLOW LIMIT.
        // EXP(-ELIM).LT.EXP(-ALIM)=EXP(-ELIM)/TOL    AND
        // EXP(ELIM).GT.EXP(ALIM)=EXP(ELIM)*TOL       ARE INTERVALS NEAR
        // UNDERFLOW AND OVERFLOW LIMITS WHERE SCALED ARITHMETIC IS DONE.
        // RL IS THE LOWER BOUNDARY OF THE ASYMPTOTIC EXPANSION FOR LARGE Z.
        // DIG = NUMBER OF BASE 10 DIGITS IN TOL = 10**(-DIG).
        // FNUL IS THE LOWER BOUNDARY OF THE ASYMPTOTIC SERIES FOR LARGE FNU.
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
        yy = az_imag(z);
        az = az_abs(z);
        fn = fnu + (n - 1);

        aa = 0.5 / tol;
        bb = 1.7976931348623157e+308 * 0.5;
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
        // CALCULATE CSGN = EXP(FNU*HPI*I) TO MINIMIZE LOSSES OF SIGNIFICANCE
        // WHEN FNU IS LARGE
        //
        ci.imag(1);
        inu = (int)fnu;
        inuh = inu / 2;
        ir = inu - 2 * inuh;
        arg = (fnu - (inu - ir)) * k_pi_2;
        r1 = az_cos(arg);
        r2 = az_sin(arg);
        csgn = zcx(r1, r2);
        if (inuh % 2 == 1) {
            csgn = -csgn;
        }
        //
        // ZN IS IN THE RIGHT HALF PLANE
        //
        zn = -z * ci;
        if (yy < 0.0) {
            zn = -zn;
            csgn = az_conj(csgn);
            ci = az_conj(ci);
        }
        nz = binu(zn, fnu, kode, n, cy, rl, fnul, tol, elim, alim);
        if (nz < 0) {
            if (nz == -2) {
                *ierr = 5;
                return 0;
            }
            *ierr = 2;
            return 0;
        }
        nl = n - nz;
        if (nl == 0) {
            return nz;
        }
        rtol = 1.0 / tol;
        ascle = THRESHOLD_MIN * rtol;
        for (i = 1; i < (nl + 1); i++) {
            zn = cy[i - 1];
            aa = az_real(zn);
            bb = az_imag(zn);
            atol = 1.0;
            if (az_fmax(az_fabs(aa), az_fabs(bb)) <= ascle) {
                zn *= rtol;
                atol = tol;
            }
            cy[i - 1] = atol * (zn * csgn);
            csgn = csgn * ci;
        }
        return nz;
    }

}  // namespace amos
}  // namespace cuarray_special
#endif
