# Facts about the KiCad library symbols and footprints the circuit uses, and about the parts the
# BOM names, stated here independently of tools/circuit so that test_hardware.py can compare:
# SYMBOLS (pin numbers) and FOOTPRINTS (pad names) as KiCad's libraries have them (KiCad 5
# symbol and footprint libraries; the Pico's symbol and footprint and the encoder symbol with
# its mounting pins came later, as their KiCad descriptions give them); PACKAGES, what each
# manufacturer part is by its datasheet, as a pattern its footprint's name must match. Not a
# test module.
SYMBOLS = {
    ("Connector", "Barrel_Jack"): {"1", "2"},
    ("Connector", "TestPoint"): {"1"},
    ("Connector_Generic", "Conn_01x03"): {"1", "2", "3"},
    ("Connector_Generic", "Conn_01x04"): {"1", "2", "3", "4"},
    ("Connector_Generic", "Conn_01x05"): {"1", "2", "3", "4", "5"},
    ("Connector_Generic", "Conn_01x07"): {str(i) for i in range(1, 8)},
    ("Connector_Generic", "Conn_01x10"): {str(i) for i in range(1, 11)},
    ("Device", "Buzzer"): {"1", "2"},
    ("Device", "C"): {"1", "2"},
    ("Device", "C_Polarized"): {"1", "2"},
    ("Device", "D"): {"1", "2"},
    ("Device", "D_Schottky"): {"1", "2"},
    ("Device", "D_TVS"): {"1", "2"},
    ("Device", "NetTie_2"): {"1", "2"},
    ("Device", "Polyfuse"): {"1", "2"},
    ("Device", "R"): {"1", "2"},
    ("Device", "RotaryEncoder_Switch_MP"): {"A", "B", "C", "S1", "S2", "MP"},
    ("LED", "WS2812B"): {"1", "2", "3", "4"},
    ("Logic_LevelTranslator", "SN74LVC1T45DBV"): {str(i) for i in range(1, 7)},
    ("MCU_Module", "RaspberryPi_Pico"): {str(i) for i in range(1, 41)},
    ("Power_Management", "LTC4365TS8"): {str(i) for i in range(1, 9)},
    ("Power_Protection", "USBLC6-2SC6"): {str(i) for i in range(1, 7)},
    ("Switch", "SW_DPDT_x2"): {str(i) for i in range(1, 7)},
    ("Switch", "SW_Push"): {"1", "2"},
    ("Switch", "SW_Reed"): {"1", "2"},
    ("Transistor_BJT", "2N3904"): {"1", "2", "3"},
    ("Transistor_FET", "IRLZ44N"): {"1", "2", "3"},
}

FOOTPRINTS = {
    "Button_Switch_THT:SW_PUSH_6mm": {"1", "2"},
    "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm": {"1", "2"},
    "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm": {"1", "2"},
    "Capacitor_THT:CP_Radial_D5.0mm_P2.00mm": {"1", "2"},
    "Capacitor_THT:CP_Radial_D6.3mm_P2.50mm": {"1", "2"},
    "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm": {"1", "2"},
    "Connector_JST:JST_VH_B3P-VH_1x03_P3.96mm_Vertical": {"1", "2", "3"},
    "Connector_JST:JST_XH_B10B-XH-A_1x10_P2.50mm_Vertical": {str(i) for i in range(1, 11)},
    "Connector_JST:JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical": {"1", "2", "3", "4"},
    "Connector_JST:JST_XH_B7B-XH-A_1x07_P2.50mm_Vertical": {str(i) for i in range(1, 8)},
    "Connector_PinHeader_2.54mm:PinHeader_1x04_P2.54mm_Vertical": {"1", "2", "3", "4"},
    "Connector_PinHeader_2.54mm:PinHeader_1x05_P2.54mm_Vertical": {"1", "2", "3", "4", "5"},
    "Connector_Wire:SolderWire-0.25sqmm_1x02_P4.5mm_D0.65mm_OD2mm": {"1", "2"},
    "Connector_Wire:SolderWire-0.25sqmm_1x04_P4.5mm_D0.65mm_OD2mm": {"1", "2", "3", "4"},
    "Connector_Wire:SolderWire-0.5sqmm_1x04_P4.6mm_D0.9mm_OD2.1mm": {"1", "2", "3", "4"},
    "Connector_Wire:SolderWire-0.5sqmm_1x06_P4.6mm_D0.9mm_OD2.1mm": {str(i) for i in range(1, 7)},
    "Connector_Wire:SolderWire-0.75sqmm_1x02_P4.8mm_D1.25mm_OD2.3mm": {"1", "2"},
    "Diode_THT:D_DO-15_P10.16mm_Horizontal": {"1", "2"},
    "Diode_THT:D_DO-34_SOD68_P7.62mm_Horizontal": {"1", "2"},
    "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal": {"1", "2"},
    "Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal": {"1", "2"},
    "Fuse:Fuse_Bourns_MF-RHT070": {"1", "2"},
    "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm": {"1", "2", "3", "4"},
    "Module:RaspberryPi_Pico_Common_THT": {str(i) for i in range(1, 41)},
    "NetTie:NetTie-2_THT_Pad0.3mm": {"1", "2"},
    "Package_TO_SOT_SMD:SOT-23-6": {str(i) for i in range(1, 7)},
    "Package_TO_SOT_SMD:TSOT-23-8": {str(i) for i in range(1, 9)},
    "Package_TO_SOT_THT:TO-220-3_Vertical": {"1", "2", "3"},
    "Package_TO_SOT_THT:TO-92_Inline": {"1", "2", "3"},
    "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal": {"1", "2"},
    "Resistor_THT:R_Axial_DIN0414_L11.9mm_D4.5mm_P15.24mm_Horizontal": {"1", "2"},
    "Rotary_Encoder:RotaryEncoder_Alps_EC11E-Switch_Vertical_H20mm":
        {"A", "B", "C", "S1", "S2", "MP"},
    "TestPoint:TestPoint_THTPad_D1.0mm_Drill0.5mm": {"1"},
}

# Manufacturer part (or, for a generic part, the BOM's part name) -> a pattern the footprint's
# name must match, from the part's datasheet: its package, mounting and lead pitch.
PACKAGES = {
    "Raspberry Pi SC0915": r"RaspberryPi_Pico_Common_THT",        # 2 x 20 pins, 2.54 mm
    "Standex-Meder ORD228VL 15-20 AT": r"_THT:.*Axial.*P15\.24mm",  # axial glass, no KiCad
    "Texas Instruments DRV5032FCLPGM": r"TO-92_Inline",              # LPG: TO-92
    "onsemi 1N4148TR": r"Diode_THT:D_DO-35",
    "Vishay BAT85": r"Diode_THT:D_DO-34",
    "TDK FG28X7R1H104KNT06": r"Capacitor_THT:C_.*_P5\.00mm",        # radial, 5 mm leads
    "Panasonic EEU-FR1A100": r"CP_Radial_D5\.0mm_P2\.00mm",          # 5 x 11 mm
    "Panasonic EEU-FR1A101": r"CP_Radial_D6\.3mm_P2\.50mm",          # 6.3 x 11.2 mm
    "Nichicon UVR1A102MPD": r"CP_Radial_D10\.0mm_P5\.00mm",          # 10 x 16 mm
    "onsemi 2N3904BU": r"TO-92_Inline",
    "Yageo MFR-25FBF52-": r"R_Axial_DIN0207",                       # 1/4 W, 2.5 x 6.5 mm
    "Vishay MBB0207 0.1 %": r"R_Axial_DIN0207",
    "Worldsemi WS2812B": r"LED_WS2812B_PLCC4_5\.0x5\.0mm",
    "Texas Instruments SN74LVC1T45DBVR": r"Package_TO_SOT_SMD:SOT-23-6$",   # DBV
    "STMicroelectronics USBLC6-2SC6": r"Package_TO_SOT_SMD:SOT-23-6$",
    "Analog Devices LTC4365CTS8": r"Package_TO_SOT_SMD:TSOT-23-8$",         # TS8
    "Infineon IRLZ44NPBF": r"TO-220-3",
    "Littelfuse P6KE27CA": r"Diode_THT:D_DO-15",
    "onsemi 1N5819RLG": r"Diode_THT:D_DO-41",
    "Littelfuse RXEF160": r"RXEF160",
    "Bourns MF-RHT070": r"Fuse_Bourns_MF-RHT070$",
    "Omron B3F-1000": r"Button_Switch_THT:SW_PUSH_6mm$",
    "Bourns PEC11R-4215F-S0024": r"RotaryEncoder_Alps_EC11E-Switch_Vertical",   # EC11 pads
    "TDK PS1240P02BT": r"Buzzer_TDK_PS1240P02BT",
    "JST B10B-XH-A + XHP-10": r"JST_XH_B10B-XH-A_",
    "JST B7B-XH-A + XHP-7": r"JST_XH_B7B-XH-A_",
    "JST B4B-XH-A + XHP-4": r"JST_XH_B4B-XH-A_",
    "JST B3P-VH + VHR-3N": r"JST_VH_B3P-VH_",
    "C&K 7201": r"Connector_Wire:SolderWire-.*_1x06_",              # panel: 6 wired lugs
    # generic parts, by the BOM's part name
    "DC jack": r"Connector_Wire:SolderWire-.*_1x02_",              # panel: 2 wired lugs
    "USB-C receptacle breakout": r"Connector_Wire:SolderWire-.*_1x04_",
    "Panel push button": r"Connector_Wire:SolderWire-.*_1x02_",
    "Micro-USB cable, cut": r"Connector_Wire:SolderWire-.*_1x04_",
    "OLED display module": r"PinHeader_1x04_P2\.54mm",
    "Rotary encoder module": r"PinHeader_1x05_P2\.54mm",
    "Ceramic capacitor": r"Capacitor_THT:C_.*_P5\.00mm",           # 10 nF radial 5 mm
}
