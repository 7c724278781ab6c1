// AMOS (amos_core.cuh says what and whence): the Airy functions Ai, Ai' (airy) and Bi, Bi'
// (biry) of a complex argument.
#ifndef CUARRAY_SPECIAL_AMOS_AIRY_CUH
#define CUARRAY_SPECIAL_AMOS_AIRY_CUH
namespace cuarray_special {
namespace amos {

    CSF_NOINLINE zcx airy(zcx z, int id, int kode, int *nz, int *ierr) {

        //***BEGIN PROLOGUE  ZAIRY
        //***DATE WRITTEN   830501   (YYMMDD)
        //***REVISION DATE  890801   (YYMMDD)
        //***CATEGORY NO.  B5K
        //***KEYWORDS  AIRY FUNCTION,BESSEL FUNCTIONS OF ORDER ONE THIRD
        //***AUTHOR  AMOS, DONALD E., SANDIA NATIONAL LABORATORIES
        //***PURPOSE  TO COMPUTE AIRY FUNCTIONS AI(Z) AND DAI(Z) FOR COMPLEX Z
        //***DESCRIPTION
        //
        //                      ***A DOUBLE PRECISION ROUTINE***
        //         ON KODE=1, ZAIRY COMPUTES THE COMPLEX AIRY FUNCTION AI(Z) OR
        //         ITS DERIVATIVE DAI(Z)/DZ ON ID=0 OR ID=1 RESPECTIVELY. ON
        //         KODE=2, A SCALING OPTION CEXP(ZTA)*AI(Z) OR CEXP(ZTA)*
        //         DAI(Z)/DZ IS PROVIDED TO REMOVE THE EXPONENTIAL DECAY IN
        //         -PI/3.LT.ARG(Z).LT.PI/3 AND THE EXPONENTIAL GROWTH IN
        //         PI/3.LT.ABS(ARG(Z)).LT.PI WHERE ZTA=(2/3)*Z*CSQRT(Z).
        //
        //         WHILE THE AIRY FUNCTIONS AI(Z) AND DAI(Z)/DZ ARE ANALYTIC IN
        //         THE WHOLE Z PLANE, THE CORRESPONDING SCALED FUNCTIONS DEFINED
        //         FOR KODE=2 HAVE A CUT ALONG THE NEGATIVE REAL AXIS.
        //         DEFINITIONS AND NOTATION ARE FOUND IN THE NBS HANDBOOK OF
        //         MATHEMATICAL FUNCTIONS (REF. 1).
        //
        //         INPUT      ZR,ZI ARE DOUBLE PRECISION
        //           ZR,ZI  - Z=zcx(ZR,ZI)
        //           ID     - ORDER OF DERIVATIVE, ID=0 OR ID=1
        //           KODE   - A PARAMETER TO INDICATE THE SCALING OPTION
        //                    KODE= 1  RETURNS
        //                             AI=AI(Z)                ON ID=0 OR
        //                             AI=DAI(Z)/DZ            ON ID=1
        //                        = 2  RETURNS
        //                             AI=CEXP(ZTA)*AI(Z)       ON ID=0 OR
        //                             AI=CEXP(ZTA)*DAI(Z)/DZ   ON ID=1 WHERE
        //                             ZTA=(2/3)*Z*CSQRT(Z)
        //
        //         OUTPUT     AIR,AII ARE DOUBLE PRECISION
        //           AIR,AII- COMPLEX ANSWER DEPENDING ON THE CHOICES FOR ID AND
        //                    KODE
        //           NZ     - UNDERFLOW INDICATOR
        //                    NZ= 0   , NORMAL RETURN
        //                    NZ= 1   , AI=zcx(0.0D0,0.0D0) DUE TO UNDERFLOW IN
        //                              -PI/3.LT.ARG(Z).LT.PI/3 ON KODE=1
        //           IERR   - ERROR FLAG
        //                    IERR=0, NORMAL RETURN - COMPUTATION COMPLETED
        //                    IERR=1, INPUT ERROR   - NO COMPUTATION
        //                    IERR=2, OVERFLOW      - NO COMPUTATION, REAL(ZTA)
        //                            TOO LARGE ON KODE=1
        //                    IERR=3, CABS(Z) LARGE      - COMPUTATION COMPLETED
        //                            LOSSES OF SIGNIFCANCE BY ARGUMENT REDUCTION
        //                            PRODUCE LESS THAN HALF OF MACHINE ACCURACY
        //                    IERR=4, CABS(Z) TOO LARGE  - NO COMPUTATION
        //                            COMPLETE LOSS OF ACCURACY BY ARGUMENT
        //                            REDUCTION
        //                    IERR=5, ERROR              - NO COMPUTATION,
        //                            ALGORITHM TERMINATION CONDITION NOT MET
        //
        //***LONG DESCRIPTION
        //
        //         AI AND DAI ARE COMPUTED FOR CABS(Z).GT.1.0 FROM THE K BESSEL
        //         FUNCTIONS BY
        //
        //            AI(Z)=C*SQRT(Z)*K(1/3,ZTA) , DAI(Z)=-C*Z*K(2/3,ZTA)
        //                           C=1.0/(PI*SQRT(3.0))
        //                            ZTA=(2/3)*Z**(3/2)
        //
        //         WITH THE POWER SERIES FOR CABS(Z).LE.1.0.
        //
        //         IN MOST COMPLEX VARIABLE COMPUTATION, ONE MUST EVALUATE ELE-
        //         MENTARY FUNCTIONS. WHEN THE MAGNITUDE OF Z IS LARGE, LOSSES
        //         OF SIGNIFICANCE BY ARGUMENT REDUCTION OCCUR. CONSEQUENTLY, IF
        //         THE MAGNITUDE OF ZETA=(2/3)*Z**1.5 EXCEEDS U1=SQRT(0.5/UR),
        //         THEN LOSSES EXCEEDING HALF PRECISION ARE LIKELY AND AN ERROR
        //         FLAG IERR=3 IS TRIGGERED WHERE UR=DMAX1(D1MACH(4),1.0D-18) IS
        //         DOUBLE PRECISION UNIT ROUNDOFF LIMITED TO 18 DIGITS PRECISION.
        //         ALSO, IF THE MAGNITUDE OF ZETA IS LARGER THAN U2=0.5/UR, THEN
        //         ALL SIGNIFICANCE IS LOST AND IERR=4. IN ORDER TO USE THE INT
        //         FUNCTION, ZETA MUST BE FURTHER RESTRICTED NOT TO EXCEED THE
        //         LARGEST INTEGER, U3=I1MACH(9). THUS, THE MAGNITUDE OF ZETA
        //         MUST BE RESTRICTED BY MIN(U2,U3). ON 32 BIT MACHINES, U1,U2,
        //         AND U3 ARE APPROXIMATELY 2.0E+3, 4.2E+6, 2.1E+9 IN SINGLE
        //         PRECISION ARITHMETIC AND 1.3E+8, 1.8E+16, 2.1E+9 IN DOUBLE
        //         PRECISION ARITHMETIC RESPECTIVELY. THIS MAKES U2 AND U3 LIMIT-
        //         ING IN THEIR RESPECTIVE ARITHMETICS. THIS MEANS THAT THE MAG-
        //         NITUDE OF Z CANNOT EXCEED 3.1E+4 IN SINGLE AND 2.1E+6 IN
        //         DOUBLE PRECISION ARITHMETIC. THIS ALSO MEANS THAT ONE CAN
        //         EXPECT TO RETAIN, IN THE WORST CASES ON 32 BIT MACHINES,
        //         NO DIGITS IN SINGLE PRECISION AND ONLY 7 DIGITS IN DOUBLE
        //         PRECISION ARITHMETIC. SIMILAR CONSIDERATIONS HOLD FOR OTHER
        //         MACHINES.
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
        //***ROUTINES CALLED  ZACAI,ZBKNU,AZEXP,AZSQRT,I1MACH,D1MACH
        //***END PROLOGUE  ZAIRY

        zcx ai, csq, cy[1], s1, s2, trm1, trm2, zta, z3;
        double aa, ad, ak, alim, atrm, az, az3, bk, ck, dig, dk, d1, d2, elim, fid, fnu, rl, r1m5, sfac, tol, zi, zr,
            bb, alaz;
        int iflag, k, k1, k2, mr, nn;
        double tth = 2. / 3.;
        double c1 = 0.35502805388781723926;   /* 1/(Gamma(2/3) * 3**(2/3)) */
        double c2 = 0.25881940379280679841;   /* 1/(Gamma(1/3) * 3**(1/3)) */
        double coef = 0.18377629847393068317; /* 1 / (sqrt(3) * PI)        */

        *ierr = 0;
        *nz = 0;
        ai = 0.;
        if ((id < 0) || (id > 1)) {
            *ierr = 1;
        }
        if ((kode < 1) || (kode > 2)) {
            *ierr = 1;
        }
        if (*ierr != 0)
            return 0.;
        az = az_abs(z);
        tol = 2.220446049250313e-16;
        fid = id;

        if (az <= 1.0) {
            //
            // POWER SERIES FOR ABS(Z) <= 1.
            //
            s1 = 1.0;
            s2 = 1.0;
            if (az < tol) {
                aa = THRESHOLD_MIN;
                s1 = 0.;
                if (id != 1) {
                    if (az > aa) {
                        s1 = c2 * z;
                    }
                    ai = c1 - s1;
                    return ai;
                }
                ai = -c2;
                aa = az_sqrt(aa);
                if (az > aa) {
                    s1 = z * z * 0.5;
                }
                ai += s1 * c1;
                return ai;
            }
            aa = az * az;
            if (aa >= tol / az) {
                trm1 = 1.0;
                trm2 = 1.0;
                atrm = 1.0;
                z3 = z * z * z;
                az3 = az * aa;
                ak = 2.0 + fid;
                bk = 3.0 - fid - fid;
                ck = 4.0 - fid;
                dk = 3.0 + fid + fid;
                d1 = ak * dk;
                d2 = bk * ck;
                ad = (d1 > d2 ? d2 : d1);
                ak = 24.0 + 9.0 * fid;
                bk = 30.0 - 9.0 * fid;
                for (int k = 1; k < 26; k++) {
                    trm1 *= z3 / d1;
                    s1 += trm1;
                    trm2 *= z3 / d2;
                    s2 += trm2;
                    atrm *= az3 / ad;
                    d1 += ak;
                    d2 += bk;
                    ad = (d1 > d2 ? d2 : d1);
                    if (atrm < tol * ad) {
                        break;
                    }
                    ak += 18.0;
                    bk += 18.0;
                }
            }
            if (id != 1) {
                ai = s1 * c1 - z * s2 * c2;
                if (kode == 1) {
                    return ai;
                }
                zta = z * az_sqrt(z) * tth;
                ai *= az_exp(zta);
                return ai;
            }
            ai = -s2 * c2;
            if (az > tol) {
                ai += z * z * s1 * c1 / (1. + fid);
            }
            if (kode == 1) {
                return ai;
            }
            zta = z * az_sqrt(z) * tth;
            return ai * az_exp(zta);
        }
        //
        // CASE FOR ABS(Z) > 1.0
        //
        fnu = (1.0 + fid) / 3.0;
        //
        // SET PARAMETERS RELATED TO MACHINE CONSTANTS.
        // TOL IS THE APPROXIMATE UNIT ROUNDOFF LIMITED TO 1.0E-18.
        // ELIM IS THE APPROXIMATE EXPONENTIAL OVER- AND UNDERFLOW LIMIT.
        // EXP(-ELIM) < EXP(-ALIM)=EXP(-ELIM)/TOL    AND
        // EXP(ELIM) > EXP(ALIM)=EXP(ELIM)*TOL       ARE INTERVALS NEAR
        // UNDERFLOW AND OVERFLOW LIMITS WHERE SCALED ARITHMETIC IS DONE.
        // RL IS THE LOWER BOUNDARY OF THE ASYMPTOTIC EXPANSION FOR LARGE Z.
        // DIG = NUMBER OF BASE 10 DIGITS IN TOL = 10**(-DIG).
        //
        k1 = (-1021);
        k2 = 1024;
        r1m5 = LOG10_2;
        k = (az_abs(k1) > az_abs(k2) ? az_abs(k2) : az_abs(k1));
        elim = 2.303 * (k * r1m5 - 3.0);
        k1 = 53 - 1;
        aa = r1m5 * k1;
        dig = (aa > 18.0 ? 18.0 : aa);
        aa *= 2.303;
        alim = elim + (-aa > -41.45 ? -aa : -41.45);
        rl = 1.2 * dig + 3.0;
        alaz = az_log(az);
        //
        // TEST FOR RANGE
        //
        aa = 0.5 / tol;
        bb = 2147483647 * 0.5;
        aa = (aa > bb ? bb : aa);
        aa = az_pow(aa, tth);
        if (az > aa) {
            *ierr = 4;
            *nz = 0;
            return 0.;
        }
        aa = az_sqrt(aa);
        if (az > aa) {
            *ierr = 3;
        }
        csq = az_sqrt(z);
        zta = z * csq * tth;
        //
        // RE(ZTA) <= 0 WHEN RE(Z) < 0, ESPECIALLY WHEN IM(Z) IS SMALL
        //
        iflag = 0;
        sfac = 1.0;
        zi = az_imag(z);
        zr = az_real(z);
        ak = az_imag(zta);
        if (zr < 0.0) {
            bk = az_real(zta);
            ck = -az_fabs(bk);
            zta = zcx(ck, ak);
        }
        if ((zi == 0.0) && (zr <= 0.0)) {
            zta = zcx(0.0, ak);
        }
        aa = az_real(zta);
        if ((aa < 0.0) || (zr <= 0.0)) {
            if (kode != 2) {
                //
                // OVERFLOW TEST
                //
                if (aa <= -alim) {
                    aa = -aa + 0.25 * alaz;
                    iflag = 1;
                    sfac = tol;
                    if (aa > elim) {
                        /* 270 */
                        *nz = 0;
                        *ierr = 2;
                        return ai;
                    }
                }
            }
            //
            // CBKNU AND CACAI RETURN EXP(ZTA)*K(FNU,ZTA) ON KODE=2
            //
            mr = 1;
            if (zi < 0.0) {
                mr = -1;
            }
            nn = acai(zta, fnu, kode, mr, 1, &cy[0], rl, tol, elim, alim);
            if (nn < 0) {
                if (nn == -1) {
                    *nz = 1;
                    return 0.;
                } else {
                    *nz = 0;
                    *ierr = 5;
                    return 0.;
                }
            }
            *nz += nn;
        } else {
            if (kode != 2) {
                //
                // UNDERFLOW TEST
                //
                if (aa >= alim) {
                    aa = -aa - 0.25 * alaz;
                    iflag = 2;
                    sfac = 1.0 / tol;
                    if (aa < -elim) {
                        *nz = 1;
                        return 0.;
                    }
                }
            }
            *nz = bknu(zta, fnu, kode, 1, &cy[0], tol, elim, alim);
        }
        s1 = cy[0] * coef;

        if (iflag == 0) {
            if (id != 1) {
                return csq * s1;
            }
            return (-z * s1);
        }
        s1 *= sfac;
        if (id != 1) {
            s1 *= csq;
            return (s1 / sfac);
        }
        s1 *= -z;
        return (s1 / sfac);
    }

    CSF_NOINLINE zcx biry(zcx z, int id, int kode, int *ierr) {

        //***BEGIN PROLOGUE  ZBIRY
        //***DATE WRITTEN   830501   (YYMMDD)
        //***REVISION DATE  890801   (YYMMDD)
        //***CATEGORY NO.  B5K
        //***KEYWORDS  AIRY FUNCTION,BESSEL FUNCTIONS OF ORDER ONE THIRD
        //***AUTHOR  AMOS, DONALD E., SANDIA NATIONAL LABORATORIES
        //***PURPOSE  TO COMPUTE AIRY FUNCTIONS BI(Z) AND DBI(Z) FOR COMPLEX Z
        //***DESCRIPTION
        //
        //                      ***A DOUBLE PRECISION ROUTINE***
        //         ON KODE=1, CBIRY COMPUTES THE COMPLEX AIRY FUNCTION BI(Z) OR
        //         ITS DERIVATIVE DBI(Z)/DZ ON ID=0 OR ID=1 RESPECTIVELY. ON
        //         KODE=2, A SCALING OPTION CEXP(-AXZTA)*BI(Z) OR CEXP(-AXZTA)*
        //         DBI(Z)/DZ IS PROVIDED TO REMOVE THE EXPONENTIAL BEHAVIOR IN
        //         BOTH THE LEFT AND RIGHT HALF PLANES WHERE
        //         ZTA=(2/3)*Z*CSQRT(Z)=zcx(XZTA,YZTA) AND AXZTA=ABS(XZTA).
        //         DEFINITIONS AND NOTATION ARE FOUND IN THE NBS HANDBOOK OF
        //         MATHEMATICAL FUNCTIONS (REF. 1).
        //
        //         INPUT      ZR,ZI ARE DOUBLE PRECISION
        //           ZR,ZI  - Z=zcx(ZR,ZI)
        //           ID     - ORDER OF DERIVATIVE, ID=0 OR ID=1
        //           KODE   - A PARAMETER TO INDICATE THE SCALING OPTION
        //                    KODE= 1  RETURNS
        //                             BI=BI(Z)                 ON ID=0 OR
        //                             BI=DBI(Z)/DZ             ON ID=1
        //                        = 2  RETURNS
        //                             BI=CEXP(-AXZTA)*BI(Z)     ON ID=0 OR
        //                             BI=CEXP(-AXZTA)*DBI(Z)/DZ ON ID=1 WHERE
        //                             ZTA=(2/3)*Z*CSQRT(Z)=zcx(XZTA,YZTA)
        //                             AND AXZTA=ABS(XZTA)
        //
        //         OUTPUT     BIR,BII ARE DOUBLE PRECISION
        //           BIR,BII- COMPLEX ANSWER DEPENDING ON THE CHOICES FOR ID AND
        //                    KODE
        //           IERR   - ERROR FLAG
        //                    IERR=0, NORMAL RETURN - COMPUTATION COMPLETED
        //                    IERR=1, INPUT ERROR   - NO COMPUTATION
        //                    IERR=2, OVERFLOW      - NO COMPUTATION, REAL(Z)
        //                            TOO LARGE ON KODE=1
        //                    IERR=3, CABS(Z) LARGE      - COMPUTATION COMPLETED
        //                            LOSSES OF SIGNIFCANCE BY ARGUMENT REDUCTION
        //                            PRODUCE LESS THAN HALF OF MACHINE ACCURACY
        //                    IERR=4, CABS(Z) TOO LARGE  - NO COMPUTATION
        //                            COMPLETE LOSS OF ACCURACY BY ARGUMENT
        //                            REDUCTION
        //                    IERR=5, ERROR              - NO COMPUTATION,
        //                            ALGORITHM TERMINATION CONDITION NOT MET
        //
        //***LONG DESCRIPTION
        //
        //         BI AND DBI ARE COMPUTED FOR CABS(Z).GT.1.0 FROM THE I BESSEL
        //         FUNCTIONS BY
        //
        //                BI(Z)=C*SQRT(Z)*( I(-1/3,ZTA) + I(1/3,ZTA) )
        //               DBI(Z)=C *  Z  * ( I(-2/3,ZTA) + I(2/3,ZTA) )
        //                               C=1.0/SQRT(3.0)
        //                             ZTA=(2/3)*Z**(3/2)
        //
        //         WITH THE POWER SERIES FOR CABS(Z).LE.1.0.
        //
        //         IN MOST COMPLEX VARIABLE COMPUTATION, ONE MUST EVALUATE ELE-
        //         MENTARY FUNCTIONS. WHEN THE MAGNITUDE OF Z IS LARGE, LOSSES
        //         OF SIGNIFICANCE BY ARGUMENT REDUCTION OCCUR. CONSEQUENTLY, IF
        //         THE MAGNITUDE OF ZETA=(2/3)*Z**1.5 EXCEEDS U1=SQRT(0.5/UR),
        //         THEN LOSSES EXCEEDING HALF PRECISION ARE LIKELY AND AN ERROR
        //         FLAG IERR=3 IS TRIGGERED WHERE UR=DMAX1(D1MACH(4),1.0D-18) IS
        //         DOUBLE PRECISION UNIT ROUNDOFF LIMITED TO 18 DIGITS PRECISION.
        //         ALSO, IF THE MAGNITUDE OF ZETA IS LARGER THAN U2=0.5/UR, THEN
        //         ALL SIGNIFICANCE IS LOST AND IERR=4. IN ORDER TO USE THE INT
        //         FUNCTION, ZETA MUST BE FURTHER RESTRICTED NOT TO EXCEED THE
        //         LARGEST INTEGER, U3=I1MACH(9). THUS, THE MAGNITUDE OF ZETA
        //         MUST BE RESTRICTED BY MIN(U2,U3). ON 32 BIT MACHINES, U1,U2,
        //         AND U3 ARE APPROXIMATELY 2.0E+3, 4.2E+6, 2.1E+9 IN SINGLE
        //         PRECISION ARITHMETIC AND 1.3E+8, 1.8E+16, 2.1E+9 IN DOUBLE
        //         PRECISION ARITHMETIC RESPECTIVELY. THIS MAKES U2 AND U3 LIMIT-
        //         ING IN THEIR RESPECTIVE ARITHMETICS. THIS MEANS THAT THE MAG-
        //         NITUDE OF Z CANNOT EXCEED 3.1E+4 IN SINGLE AND 2.1E+6 IN
        //         DOUBLE PRECISION ARITHMETIC. THIS ALSO MEANS THAT ONE CAN
        //         EXPECT TO RETAIN, IN THE WORST CASES ON 32 BIT MACHINES,
        //         NO DIGITS IN SINGLE PRECISION AND ONLY 7 DIGITS IN DOUBLE
        //         PRECISION ARITHMETIC. SIMILAR CONSIDERATIONS HOLD FOR OTHER
        //         MACHINES.
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
        //***ROUTINES CALLED  ZBINU,AZABS,ZDIV,AZSQRT,D1MACH,I1MACH
        //***END PROLOGUE  ZBIRY

        zcx bi, csq, s1, s2, trm1, trm2, zta, z3;
        double aa, ad, ak, alim, atrm, az, az3, bb, bk, ck, dig, dk, d1, d2, elim, fid, fmr, fnu, fnul, rl, r1m5, sfac,
            tol, zi, zr;
        int k, k1, k2, nz;
        zcx cy[2] = {0.0};
        double tth = 2. / 3.;
        double c1 = 0.614926627446000735150922369;   /* 1/( 3**(1/6) Gamma(2/3)) */
        double c2 = 0.448288357353826357914823710;   /* 3**(1/6) / Gamma(1/3)    */
        double coef = 0.577350269189625764509148780; /* sqrt( 1 / 3)             */

        *ierr = 0;
        nz = 0;
        if ((id < 0) || (id > 1)) {
            *ierr = 1;
        }
        if ((kode < 1) || (kode > 2)) {
            *ierr = 1;
        }
        if (*ierr != 0) {
            return 0.0;
        }
        az = az_abs(z);
        tol = RTOL_MIN;
        fid = id;
        if (az <= 1.0) {
            //
            // POWER SERIES FOR ABS(Z) <= 1.
            //
            s1 = 1.0;
            s2 = 1.0;
            if (az < tol) {
                aa = c1 * (1.0 - fid) + fid * c2;
                return aa;
            }
            aa = az * az;
            if (aa >= tol / az) {
                trm1 = 1.0;
                trm2 = 1.0;
                atrm = 1.0;
                z3 = z * z * z;
                az3 = az * aa;
                ak = 2.0 + fid;
                bk = 3.0 - fid - fid;
                ck = 4.0 - fid;
                dk = 3.0 + fid + fid;
                d1 = ak * dk;
                d2 = bk * ck;
                ad = az_fmin(d1, d2);
                ak = 24.0 + 9.0 * fid;
                bk = 30.0 - 9.0 * fid;
                for (k = 1; k < 26; k++) {
                    trm1 *= z3 / d1;
                    s1 += trm1;
                    trm2 *= z3 / d2;
                    s2 += trm2;
                    atrm *= az3 / ad;
                    d1 += ak;
                    d2 += bk;
                    ad = az_fmin(d1, d2);
                    if (atrm < tol * ad) {
                        break;
                    }
                    ak += 18.0;
                    bk += 18.0;
                }
                /* 30 */
            }
            /* 40 */
            if (id != 1) {
                bi = s1 * c1 + z * s2 * c2;
                if (kode == 1) {
                    return bi;
                }
                zta = z * az_sqrt(z) * tth;
                aa = -az_fabs(az_real(zta));
                bi *= az_exp(aa);
                return bi;
            }
            /* 50 */
            bi = s2 * c2;
            if (az > tol) {
                bi += z * z * s1 * c1 / (1.0 + fid);
            }
            if (kode == 1) {
                return bi;
            }
            zta = z * az_sqrt(z) * tth;
            aa = -az_fabs(az_real(zta));
            bi *= az_exp(aa);
            return bi;
        }
        /* 70 */
        //
        // CASE FOR ABS(Z) > 1.0
        //
        fnu = (1.0 + fid) / 3.0;
        //
        // SET PARAMETERS RELATED TO MACHINE CONSTANTS.
        // TOL IS THE APPROXIMATE UNIT ROUNDOFF LIMITED TO 1.0E-18.
        // ELIM IS THE APPROXIMATE EXPONENTIAL OVER- AND UNDERFLOW LIMIT.
        // EXP(-ELIM) < EXP(-ALIM)=EXP(-ELIM)/TOL    AND
        // EXP(ELIM) > EXP(ALIM)=EXP(ELIM)*TOL       ARE INTERVALS NEAR
        // UNDERFLOW AND OVERFLOW LIMITS WHERE SCALED ARITHMETIC IS DONE.
        // RL IS THE LOWER BOUNDARY OF THE ASYMPTOTIC EXPANSION FOR LARGE Z.
        // DIG = NUMBER OF BASE 10 DIGITS IN TOL = 10**(-DIG).
        // FNUL IS THE LOWER BOUNDARY OF THE ASYMPTOTIC SERIES FOR LARGE FNU.
        //
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
        // TEST FOR RANGE
        //
        aa = 0.5 / tol;
        bb = 2147483647 * 0.5;
        aa = az_fmin(aa, bb);
        aa = az_pow(aa, tth);
        if (az > aa) {
            *ierr = 4;
            return 0.0;
        }
        aa = az_sqrt(aa);
        if (az > aa) {
            *ierr = 3;
        }
        csq = az_sqrt(z);
        zta = z * csq * tth;
        //
        // RE(ZTA) <= 0 WHEN RE(Z) < 0, ESPECIALLY WHEN IM(Z) IS SMALL
        //
        sfac = 1.0;
        zi = az_imag(z);
        zr = az_real(z);
        ak = az_imag(zta);
        if (zr < 0.0) {
            bk = az_real(zta);
            ck = -az_fabs(bk);
            zta = zcx(ck, ak);
        }
        /* 80 */
        if ((zi == 0.0) && (zr <= 0.0)) {
            zta = zcx(0.0, ak);
        }
        /* 90 */
        aa = az_real(zta);
        if (kode != 2) {
            //
            // OVERFLOW TEST
            //
            bb = az_fabs(aa);
            if (bb >= alim) {
                bb += 0.25 * az_log(az);
                sfac = tol;
                if (bb > elim) {
                    *ierr = 2;
                    return 0.0;
                }
            }
        }
        /* 100 */
        fmr = 0.0;
        if ((aa < 0.0) || (zr <= 0.0)) {
            fmr = k_pi;
            if (zi < 0.0) {
                fmr = -k_pi;
            }
            zta = -zta;
        }
        /* 110 */
        //
        // AA=FACTOR FOR ANALYTIC CONTINUATION OF I(FNU,ZTA)
        // KODE=2 RETURNS EXP(-ABS(XZTA))*I(FNU,ZTA) FROM CBINU
        //
        nz = binu(zta, fnu, kode, 1, cy, rl, fnul, tol, elim, alim);
        if (nz < 0) {
            if (nz == -1) {
                *ierr = 2;
            } else {
                *ierr = 5;
            }
            return 0.0;
        }
        aa = fmr * fnu;
        z3 = sfac;
        s1 = cy[0] * zcx(az_cos(aa), az_sin(aa)) * z3;
        fnu = (2.0 - fid) / 3.0;
        nz = binu(zta, fnu, kode, 2, cy, rl, fnul, tol, elim, alim);
        cy[0] *= z3;
        cy[1] *= z3;
        //
        // BACKWARD RECUR ONE STEP FOR ORDERS -1/3 OR -2/3
        //
        s2 = cy[0] * (fnu + fnu) / zta + cy[1];
        aa = fmr * (fnu - 1.0);
        s1 = (s1 + s2 * zcx(az_cos(aa), az_sin(aa))) * coef;
        if (id != 1) {
            s1 *= csq;
            bi = s1 / sfac;
            return bi;
        }
        /* 120 */
        s1 *= z;
        bi = s1 / sfac;
        return bi;
    }

}  // namespace amos
}  // namespace cuarray_special
#endif
