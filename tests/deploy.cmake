# deploy/: the Prometheus alert rules pass promtool (skipped without it),
# and every metric the rules and the Grafana dashboard use is one a live
# sokod serves.
add_test(NAME deploy_alert_rules_check
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/deploy/rules.sh ${CMAKE_SOURCE_DIR}/deploy)
set_tests_properties(deploy_alert_rules_check PROPERTIES LABELS unit TIMEOUT 120
                     SKIP_RETURN_CODE 77)
add_test(NAME deploy_metric_names_exist
         COMMAND ${SOKOD_CLI_GUARD} bash ${CMAKE_CURRENT_SOURCE_DIR}/deploy/metric_names.sh
                 $<TARGET_FILE:sokod> ${CMAKE_SOURCE_DIR}/deploy)
set_tests_properties(deploy_metric_names_exist PROPERTIES LABELS cli TIMEOUT 120)
