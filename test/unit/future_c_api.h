/* future_c_api.h — the typed future macros compiled as C (future_c_api.c). */
#ifndef WUC_TEST_FUTURE_C_API_H
#define WUC_TEST_FUTURE_C_API_H

#ifdef __cplusplus
extern "C" {
#endif

/* 0 if every check passed, else the source line of the first that failed. */
int future_c_api_check(void);

#ifdef __cplusplus
}
#endif
#endif
