/// The example menu, compiled in so that `menud` serves something useful before the
/// user writes a config. It is `config/example.yaml` verbatim; a test keeps the two
/// identical.
public enum BuiltinMenu {
    /// The name errors and `MenuConfig.file` use for the built-in menu.
    public static let file = "<builtin>"

    public static let yaml: String = #"""
        # The menu menud serves when you have no config of your own.
        # Copy it to ~/.config/menud/menu.yaml and edit; docs/config.md explains every key.

        settings:
          # true makes every group open one branch at a time unless it says otherwise.
          exclusive: false

        menu:
          - id: apps
            title: Applications
            icon: applications-other
            children:
              - title: Terminal
                icon: utilities-terminal
                exec: x-terminal-emulator
              - title: Web browser
                id: browser
                icon: web-browser
                exec: x-www-browser
              - title: Text editor
                id: editor
                icon: accessories-text-editor
                exec: x-terminal-emulator -e editor
              - title: File manager
                icon: system-file-manager
                exec: xdg-open ~

          - id: settings
            title: Settings
            icon: preferences-system
            exclusive: true
            children:
              - id: network
                title: Network
                subtitle: "Wi-Fi {settings/network/wifi}, Bluetooth {settings/network/bluetooth}"
                icon: network-wireless
                children:
                  - id: wifi
                    title: "Wi-Fi: {value}"
                    type: toggle
                    value: on
                    # Follows the real radio; where nmcli is missing the row is stale.
                    value-cmd: s=$(nmcli radio wifi) || exit 1; [ "$s" = enabled ] && echo on || echo off
                    value-listen: >-
                      nmcli monitor | grep --line-buffered -i wi-fi | while read -r _; do
                      s=$(nmcli radio wifi) || exit 1; [ "$s" = enabled ] && echo on || echo off; done
                    on-change: nmcli radio wifi "$MENU_VALUE"
                  - id: bluetooth
                    title: "Bluetooth: {value}"
                    type: toggle
                    value: off

              - id: appearance
                title: Appearance
                icon: preferences-desktop-theme
                expanded: true
                children:
                  - id: theme
                    title: "Theme: {value}"
                    options: [Light, Dark, Solarized]
                    value: Dark
                  - id: accent
                    title: "Accent: {value}"
                    options:
                      - {id: blue, title: Blue}
                      - {id: green, title: Green}
                      - {id: orange, title: Orange}

              - id: system
                title: System
                icon: computer
                children:
                  - id: hostname
                    title: "Hostname: {value}"
                    type: text
                    value: workstation
                  - id: reminder
                    title: "Backup reminder: {value}"
                    type: date
                    value: 2025-01-31

          - id: display
            title: Display
            icon: video-display
            children:
              - id: volume
                title: "Volume: {value}%"
                type: range
                min: 0
                max: 100
                step: 5
                value: 40
                # Follows the real sink, a media key included; where wpctl is missing the
                # row is stale.
                value-cmd: >-
                  v=$(wpctl get-volume @DEFAULT_AUDIO_SINK@) || exit 1;
                  echo "$v" | awk '{ print int($2 * 100 + 0.5) }'
                value-listen: >-
                  pactl subscribe | grep --line-buffered "on sink" | while read -r _; do
                  v=$(wpctl get-volume @DEFAULT_AUDIO_SINK@) || exit 1;
                  echo "$v" | awk '{ print int($2 * 100 + 0.5) }'; done
                on-change: wpctl set-volume @DEFAULT_AUDIO_SINK@ "$MENU_VALUE%"
              - id: brightness
                title: "Brightness: {value}%"
                type: range
                min: 5
                max: 100
                step: 5
                value: 70

          - id: power
            title: Power
            icon: system-shutdown
            children:
              - title: Lock
                icon: system-lock-screen
                exec: loginctl lock-session
              - title: Suspend
                icon: system-suspend
                exec: systemctl suspend
              # confirm: asks first: the item opens Yes / No rows, and only Yes runs it.
              - title: Reboot
                icon: system-reboot
                exec: systemctl reboot
                confirm: Reboot now?
              - title: Shut down
                id: shutdown
                icon: system-shutdown
                exec: systemctl poweroff
                confirm: Power off now?

        """#
}
