// The one API server of an end-to-end run, started at first use and stopped
// at exit: the suite runs in one process, and every test case shares it.
#ifndef SCHEDKIT_TESTS_E2E_SHARED_APISERVER_H_
#define SCHEDKIT_TESTS_E2E_SHARED_APISERVER_H_

#include "e2e/test_apiserver.h"

namespace schedkit::e2e {

// Fails the calling test when the server cannot start.
TestApiServer& Server();

}  // namespace schedkit::e2e

#endif  // SCHEDKIT_TESTS_E2E_SHARED_APISERVER_H_
