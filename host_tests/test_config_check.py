# drivers.config_check: every kind of mistake a builder can make in config.py is refused with a
# message that names the setting; the shipped config passes.
from checks import raises

import config
from drivers.config_check import check, REQUIRED, OPTIONAL

RUNTIMES = ("cpython", "micropython")


class Cfg:
    pass


def cfg_with(**changes):
    c = Cfg()
    for key in dir(config):
        if key.isupper():
            setattr(c, key, getattr(config, key))
    for key in changes:
        setattr(c, key, changes[key])
    return c


def refused(*words, **changes):
    msg = raises(ValueError, check, cfg_with(**changes))
    for w in words:
        assert w in msg, (w, msg)
    assert msg.startswith("config.py: ")
    return msg


def test_shipped_config_passes():
    assert check(config) is None
    assert check(cfg_with()) is None


def test_every_setting_in_config_py_is_known():
    keys = [k for k in dir(config) if k.isupper()]
    for k in keys:
        assert k in REQUIRED or k in OPTIONAL, k
    for k in REQUIRED:
        assert k in keys, k


def test_pin_used_twice():
    refused("GP5", "MATRIX_COL_PINS", "LED_PIN", LED_PIN=5)
    refused("GP18", "BUTTON_PINS", "BUZZER_PIN", BUZZER_PIN=18)
    refused("MATRIX_ROW_PINS", "GP9", "twice", MATRIX_ROW_PINS=(9, 9, 11, 12, 13, 14, 15, 16, 17))
    refused("GP0", "I2C_SDA_PIN", "BUTTON_PINS", BUTTON_PINS=(0, 19, 20))


def test_only_the_active_input_pins_count():
    # Buttons in use: the encoder's pins may clash with anything (they are not wired).
    assert check(cfg_with(ENCODER_PINS=(2, 3, 4))) is None
    refused("GP2", "MATRIX_COL_PINS", "ENCODER_PINS", INPUT_TYPE="encoder",
            ENCODER_PINS=(2, 19, 20))
    assert check(cfg_with(INPUT_TYPE="encoder", BUTTON_PINS=(2, 3, 4))) is None


def test_buzzer_can_be_left_out():
    assert check(cfg_with(BUZZER_PIN=None)) is None


def test_pins_the_pico_does_not_have():
    for bad in (23, 24, 25, 29, 30, -1):
        refused("LED_PIN", "GP%d" % bad, LED_PIN=bad)
    refused("MATRIX_ROW_PINS", "GP25", MATRIX_ROW_PINS=(9, 10, 11, 12, 13, 14, 15, 16, 25))
    refused("BUZZER_PIN", "GP23", BUZZER_PIN=23)
    assert check(cfg_with(BUZZER_PIN=26)) is None


def test_wrong_led_count():
    refused("LED_COUNT", "63", LED_COUNT=64)
    refused("LED_COUNT", LED_COUNT="63")


def test_unknown_options():
    refused("LED_WIRING", "zigzag", "'serpentine'", LED_WIRING="zigzag")
    refused("LED_START", "'a1'", LED_START="A1")
    refused("LED_RUNS", LED_RUNS="columns")
    refused("SENSOR_TYPE", SENSOR_TYPE="optical")
    refused("DIODE_DIRECTION", DIODE_DIRECTION="cathode")
    refused("INPUT_TYPE", INPUT_TYPE="touch")
    refused("I2C_ID", I2C_ID=2)
    refused("ENCODER_DETENT_STEPS", ENCODER_DETENT_STEPS=3)


def test_bad_types():
    refused("LED_BRIGHTNESS", "whole number", LED_BRIGHTNESS="40")
    refused("SCAN_PERIOD_MS", SCAN_PERIOD_MS=5.0)
    refused("OLED_FLIP", "True or False", OLED_FLIP=1)
    refused("BUZZER_PIN", BUZZER_PIN="21")
    refused("LED_PIN", LED_PIN=True)
    refused("MATRIX_COL_PINS", "list", MATRIX_COL_PINS=2)
    refused("SENSOR_ACTIVE_LEVEL", SENSOR_ACTIVE_LEVEL=False)
    refused("SETTLE_MS", SETTLE_MS=None)


def test_wrong_number_of_pins():
    refused("MATRIX_COL_PINS", "7", MATRIX_COL_PINS=(2, 3, 4, 5, 6, 7))
    refused("MATRIX_ROW_PINS", "9", MATRIX_ROW_PINS=(9, 10, 11, 12, 13, 14, 15, 16))
    refused("BUTTON_PINS", "3", BUTTON_PINS=(18, 19))


def test_values_out_of_range():
    refused("LED_BRIGHTNESS", "0 to 100", LED_BRIGHTNESS=120)
    refused("SCAN_PERIOD_MS", SCAN_PERIOD_MS=20)
    refused("I2C_FREQ", I2C_FREQ=5000000)
    refused("OLED_ADDR", "0x3C", OLED_ADDR=0x3E)
    refused("LED_MA_PER_CHANNEL", LED_MA_PER_CHANNEL=0)
    refused("DEBOUNCE_MS", DEBOUNCE_MS=-1)


def test_misspelled_and_unknown_settings():
    refused("LED_BRIGTHNESS", "Did you mean LED_BRIGHTNESS", LED_BRIGTHNESS=40)
    refused("DEBOUNCE_MSS", "DEBOUNCE_MS", DEBOUNCE_MSS=10)
    refused("WIFI_PASSWORD", "not a known setting", WIFI_PASSWORD="x")
    config.LED_BRIGTHNESS = 40                # the module itself, as the board checks it
    try:
        assert "Did you mean LED_BRIGHTNESS" in raises(ValueError, check, config)
    finally:
        del config.LED_BRIGTHNESS


def test_missing_setting():
    c = cfg_with()
    delattr(c, "LED_PIN")
    msg = raises(ValueError, check, c)
    assert "LED_PIN is missing" in msg, msg
    for key in OPTIONAL:                      # settings added with the drivers may be absent
        c = cfg_with()
        delattr(c, key)
        assert check(c) is None, key


def test_reed_diode_and_active_level_must_agree():
    refused("SENSOR_ACTIVE_LEVEL", "DIODE_DIRECTION", SENSOR_ACTIVE_LEVEL=1)
    assert check(cfg_with(DIODE_DIRECTION="row_anode", SENSOR_ACTIVE_LEVEL=1)) is None
    assert check(cfg_with(SENSOR_TYPE="hall", DIODE_DIRECTION="row_anode")) is None


def test_i2c_pins_must_belong_to_the_chosen_bus():
    refused("I2C_SDA_PIN", "I2C0", "GP4", I2C_SDA_PIN=3, MATRIX_COL_PINS=(2, 4, 5, 6, 7, 8, 26))
    refused("I2C_SCL_PIN", "SCL", I2C_SCL_PIN=0, I2C_SDA_PIN=4)
    refused("I2C_SDA_PIN", "I2C1", I2C_ID=1)
    assert check(cfg_with(I2C_ID=1, I2C_SDA_PIN=26, I2C_SCL_PIN=27)) is None


def test_row_waits_must_fit_the_scan_period():
    refused("HALL_POWER_UP_US", "SCAN_PERIOD_MS", SENSOR_TYPE="hall", HALL_POWER_UP_US=500)
    refused("MATRIX_SETTLE_US", MATRIX_SETTLE_US=300)
    assert check(cfg_with(HALL_POWER_UP_US=500)) is None     # reed: not used


def test_current_budget_must_leave_room_for_light():
    refused("LED_CURRENT_BUDGET_MA", "LED_IDLE_MA", LED_CURRENT_BUDGET_MA=60)
    refused("LONG_PRESS_MS", "BUTTON_DEBOUNCE_MS", LONG_PRESS_MS=100, BUTTON_DEBOUNCE_MS=150)


def test_play_timing_and_recorder_settings():
    refused("ADJUST_MS", "1500", "0 to 1000", ADJUST_MS=1500)
    refused("REOPEN_MS", "whole number", REOPEN_MS=2.5)
    refused("RECORDER_EVENTS", "0 to 8192", RECORDER_EVENTS=100000)
    refused("RECORDER_FILE_EVENTS", "16 to 8192", RECORDER_FILE_EVENTS=0)
    assert check(cfg_with(RECORDER_EVENTS=0, REOPEN_MS=0, ADJUST_MS=0)) is None


def test_led_budget_must_fit_the_power_supply():
    refused("LED_CURRENT_BUDGET_MA = 400", "POWER_SUPPLY", "external", LED_CURRENT_BUDGET_MA=400)
    assert check(cfg_with(POWER_SUPPLY="external", LED_CURRENT_BUDGET_MA=1150)) is None
    # Issue 21: F1 holds 1.28 A when warm, of which the board takes about 120 mA.
    refused("1150", "fuse", POWER_SUPPLY="external", LED_CURRENT_BUDGET_MA=1200)
    refused("1150", "fuse", POWER_SUPPLY="external", LED_CURRENT_BUDGET_MA=2000)
    # The strict USB setting caps the LEDs in the driver, whatever the budget says.
    assert check(cfg_with(POWER_SUPPLY="usb_strict", LED_CURRENT_BUDGET_MA=350)) is None
    refused("POWER_SUPPLY", "usb_strict", POWER_SUPPLY="battery")
    c = cfg_with()
    del c.POWER_SUPPLY                      # an older config.py: USB assumed
    assert check(c) is None


def test_no_setting_lets_the_led_cap_undercount():
    # Issue 21: LED_MA_PER_CHANNEL = 1 made a full-white frame look like 252 mA; it is 3.8 A.
    refused("LED_MA_PER_CHANNEL", "20 to 100", "brightest LED", LED_MA_PER_CHANNEL=1)
    refused("LED_MA_PER_CHANNEL", LED_MA_PER_CHANNEL=19)
    refused("LED_IDLE_MA", "1 to 10", LED_IDLE_MA=0)
    assert check(cfg_with(LED_MA_PER_CHANNEL=20)) is None
    assert check(cfg_with(LED_MA_PER_CHANNEL=60)) is None


def test_the_external_supply_needs_its_sense_pin():
    refused("POWER_SENSE_PIN", "external", POWER_SUPPLY="external", POWER_SENSE_PIN=None,
            LED_CURRENT_BUDGET_MA=1000)
    assert check(cfg_with(POWER_SUPPLY="external", LED_CURRENT_BUDGET_MA=1000)) is None
    assert check(cfg_with(POWER_SENSE_PIN=None)) is None            # USB needs no sense
    refused("POWER_SENSE_PIN", "ADC", "GP26", POWER_SENSE_PIN=21, BUZZER_PIN=None)
    refused("POWER_SENSE_PIN", POWER_SENSE_PIN="26")
    refused("GP28", "BUZZER_PIN", "POWER_SENSE_PIN", BUZZER_PIN=28)
    assert check(cfg_with(POWER_SENSE_PIN=27)) is None


def test_the_hall_build_needs_its_rows_on_the_anode_side():
    refused("SENSOR_TYPE", "row_anode", "transistor", SENSOR_TYPE="hall")
    assert check(cfg_with(SENSOR_TYPE="hall", DIODE_DIRECTION="row_anode")) is None


def test_the_language_must_be_one_the_board_speaks():
    for code in ("en", "de", "it", "es"):
        assert check(cfg_with(LANGUAGE=code)) is None
    msg = refused("LANGUAGE", "'fr'", "'de'", "'es'", LANGUAGE="fr")
    assert "\n" not in msg
    refused("LANGUAGE", LANGUAGE="German")
    refused("LANGUAGE", LANGUAGE=None)


def test_passes_tells_main_py_whether_the_app_must_check_again():
    # main.py asks before the App's modules load; on False, app.main checks again and shows
    # the problem (its own tests), so a bad config.py is never taken as good.
    import sys
    from drivers import config_check
    assert config_check.passes() is True
    saved = sys.modules["config"]
    try:
        sys.modules["config"] = cfg_with(LED_PIN=99)
        assert config_check.passes() is False
        sys.modules["config"] = cfg_with(LED_BRIGHTNESS="high")
        assert config_check.passes() is False
    finally:
        sys.modules["config"] = saved
    assert config_check.passes() is True
